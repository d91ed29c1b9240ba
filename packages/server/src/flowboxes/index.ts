/** What the rest of the server uses of the flowboxes domain (docs/architecture.md). */
export { openSystemClosesSince, valveClosesSince } from './commands.repo.ts';
export { deviceAuthenticator } from './device-auth.ts';
export {
  backedAccounts,
  findFlowboxBySerial,
  insertCredential,
  listFlowboxes,
  liveSecretHash,
  lockDeviceAccounts,
  revokeOrphanCredentials,
  toApiFlowbox,
  type FlowboxRow,
} from './flowboxes.repo.ts';
export { retireFlowboxesUnder } from './removal.ts';
export { hashSecret, newDeviceSecret, secretMatches } from './secrets.ts';
