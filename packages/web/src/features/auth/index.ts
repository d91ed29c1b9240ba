export {
  ANY_ROLE,
  canDo,
  CUSTOMER_OR_SITE,
  END_USER,
  EVERY_ROLE,
  FLOVEA,
  FLOVEA_OR_CUSTOMER,
  hasRole,
  MANAGER_OR_END_USER,
  MANAGER_OR_PLUMBER,
} from './access.ts';
export { ME_QUERY_KEY, meQueryOptions, useMe } from './api/get-me.ts';
export { useOptionalUser, useUser } from './user-context.ts';
export { useLogout } from './api/logout.ts';
