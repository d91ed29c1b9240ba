import { useTranslation } from 'react-i18next';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
  type ManagerFamily,
} from '../../managers/index.ts';

const FAMILY: ManagerFamily = { role: 1 };
const LIST_HREF = paths.floveaManagers.getHref();

function useCrumbs() {
  const { t } = useTranslation();
  return [{ label: t('flovea_managers.title'), to: LIST_HREF }];
}

export function FloveaManagersPage() {
  const { t } = useTranslation();
  return (
    <ManagersListPage
      family={FAMILY}
      title={t('flovea_managers.title')}
      description={t('flovea_managers.description')}
      addHref={paths.floveaManagerAdd.getHref()}
      editHref={(id) => paths.floveaManagerEdit.getHref(id)}
      permissionsHref={(id) => paths.floveaManagerPermissions.getHref(id)}
    />
  );
}

export function FloveaManagerAddPage() {
  return <ManagerAddPage family={FAMILY} listHref={LIST_HREF} breadcrumbs={useCrumbs()} />;
}

export function FloveaManagerEditPage() {
  const managerId = useRequiredParam('floveaManagerId');
  return (
    <ManagerEditPage family={FAMILY} managerId={managerId} listHref={LIST_HREF} breadcrumbs={useCrumbs()} />
  );
}

export function FloveaManagerPermissionsPage() {
  const managerId = useRequiredParam('floveaManagerId');
  return (
    <ManagerPermissionsPage
      family={FAMILY}
      managerId={managerId}
      listHref={LIST_HREF}
      breadcrumbs={useCrumbs()}
    />
  );
}
