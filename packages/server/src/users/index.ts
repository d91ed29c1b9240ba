/** What the rest of the server uses of the users domain (docs/architecture.md). */
export { findUserByEmail, findUserById, insertUser, siteIdsOf, type UserRow } from './users.repo.ts';
