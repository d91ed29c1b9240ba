import { ROLES, type Person, type User } from '@flowbox/shared';
import { ANY_ROLE, canDo } from '../auth/index.ts';
import { canManageFamily } from '../managers/index.ts';
import { paths } from '../../paths.ts';

export type PersonLinks = { edit?: string; permissions?: string };

/** Where the viewer edits a person and its permissions, when it may and such a screen exists. */
export function personLinks(person: Person, viewer: User): PersonLinks {
  const customerId = person.customer_id;
  switch (person.role) {
    case ROLES.flovea_manager:
      if (!canManageFamily(viewer, { role: ROLES.flovea_manager })) return {};
      return {
        edit: paths.floveaManagerEdit.getHref(person.id),
        permissions: paths.floveaManagerPermissions.getHref(person.id),
      };
    case ROLES.customer_manager:
      if (!customerId || !canManageFamily(viewer, { role: ROLES.customer_manager, customerId })) return {};
      return {
        edit: paths.customerManagerEdit.getHref(customerId, person.id),
        permissions: paths.customerManagerPermissions.getHref(customerId, person.id),
      };
    case ROLES.site_manager: {
      // The site manager screens live under one of its sites: the first the viewer sees.
      const siteId = person.sites[0]?.id;
      if (!customerId || !siteId || !canManageFamily(viewer, { role: ROLES.site_manager, customerId }))
        return {};
      return {
        edit: paths.siteManagerEdit.getHref(customerId, siteId, person.id),
        permissions: paths.siteManagerPermissions.getHref(customerId, siteId, person.id),
      };
    }
    case ROLES.end_user:
    case ROLES.plumber:
      if (!customerId || !canDo(viewer, ANY_ROLE, 'end_users.manage')) return {};
      return person.role === ROLES.end_user
        ? {
            edit: paths.endUserEdit.getHref(customerId, person.id),
            permissions: paths.endUserPermissions.getHref(customerId, person.id),
          }
        : {
            edit: paths.plumberUserEdit.getHref(customerId, person.id),
            permissions: paths.plumberUserPermissions.getHref(customerId, person.id),
          };
    default:
      return {};
  }
}

export type CreateEntry = {
  to: string;
  label:
    | 'people.create_flovea_manager'
    | 'people.create_customer_manager'
    | 'people.create_site_manager'
    | 'people.create_customer_people'
    | 'people.create_end_user';
};

/** The existing pages where the viewer adds someone (each family keeps its own form). */
export function createEntries(viewer: User): CreateEntry[] {
  const entries: CreateEntry[] = [];
  if (viewer.role === ROLES.flovea_manager) {
    if (canManageFamily(viewer, { role: ROLES.flovea_manager }))
      entries.push({ to: paths.floveaManagerAdd.getHref(), label: 'people.create_flovea_manager' });
    entries.push({ to: paths.customers.getHref(), label: 'people.create_customer_people' });
    return entries;
  }
  const customerId = viewer.customer_id;
  if (!customerId) return entries;
  if (canManageFamily(viewer, { role: ROLES.customer_manager, customerId })) {
    entries.push({
      to: paths.customerManagerAdd.getHref(customerId),
      label: 'people.create_customer_manager',
    });
    entries.push({ to: paths.sites.getHref(customerId), label: 'people.create_site_manager' });
  }
  if (canDo(viewer, ANY_ROLE, 'end_users.manage'))
    entries.push({ to: paths.endUserAdd.getHref(customerId), label: 'people.create_end_user' });
  return entries;
}
