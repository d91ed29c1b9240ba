import type { Site } from '@flowbox/shared';
import { Alert } from '../../../components/Alert.tsx';
import { Card } from '../../../components/Card.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { useCreateSite, useSites } from '../../sites/index.ts';
import { useAssistantForms } from '../forms.ts';
import { ChoiceList } from './ChoiceList.tsx';

/** Step 1: the site. Customer managers may create one (spec §6); site managers pick one of theirs. */
export function SiteStep({
  customerId,
  chosenId,
  onDone,
}: {
  customerId: string;
  chosenId?: string;
  onDone: (site: Site) => void;
}) {
  const { SiteForm } = useAssistantForms();
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const sites = useSites(customerId);
  const create = useCreateSite(customerId);
  const mayCreate = canDo(user, FLOVEA_OR_CUSTOMER, 'sites.manage');
  return (
    <QueryBoundary query={sites}>
      {(data) => (
        <div className="space-y-6">
          <ChoiceList
            title={t('assistant.site.existing')}
            items={data.items}
            chosenId={chosenId}
            detail={(site) => t('assistant.site.buildings', { count: site.building_count })}
            continueLabel={(site) => t('assistant.continue_with', { name: site.name })}
            onChoose={onDone}
          />
          {mayCreate ? (
            <Card title={data.items.length > 0 ? t('assistant.site.new') : t('assistant.site.new_first')}>
              <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
                {t('assistant.site.new_hint')}
              </p>
              <SiteForm
                submitLabel={t('assistant.site.create')}
                cancelTo={paths.home.getHref()}
                onSubmit={async (values) => {
                  const site = await create.mutateAsync(values);
                  toast.success(t('toast.site_created'));
                  onDone(site);
                }}
              />
            </Card>
          ) : (
            data.items.length === 0 && <Alert tone="info">{t('assistant.site.none_assigned')}</Alert>
          )}
        </div>
      )}
    </QueryBoundary>
  );
}
