/** What the rest of the server uses of the end users domain (docs/architecture.md). */
export { hashClaimCode } from './activation.ts';
export { confirmRegistrationEmail } from './emails.ts';
export { confirmRegistrationLink, openRegistration } from './registration.ts';
