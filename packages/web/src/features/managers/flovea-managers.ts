import { ROLES } from '@flowbox/shared';
import { paths } from '../../paths.ts';
import type { ManagerFamilyPages } from './family-pages.ts';

/** Flovea managers hang from no customer: their pages start at their own list. */
export const FLOVEA_MANAGERS: ManagerFamilyPages = {
  name: 'flovea_managers',
  usePlace: () => ({
    family: { role: ROLES.flovea_manager },
    crumbs: [],
    listHref: paths.floveaManagers.getHref(),
    addHref: paths.floveaManagerAdd.getHref(),
    editHref: (id) => paths.floveaManagerEdit.getHref(id),
    permissionsHref: (id) => paths.floveaManagerPermissions.getHref(id),
  }),
};
