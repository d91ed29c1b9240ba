/** What the rest of the server uses of the end users domain (docs/architecture.md). */
export { approveByCode, hashClaimCode } from './activation.ts';
export { confirmRegistrationEmail } from './emails.ts';
export {
  claimConfirmation,
  findUsableCode,
  hasOpenRegistration,
  insertRegistrationRow,
  lockAddress,
  NO_PASSWORD_YET,
  placeOfZone,
  serialInZone,
  useClaimCode,
} from './endusers.repo.ts';
