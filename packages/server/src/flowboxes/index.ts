/** What the rest of the server uses of the flowboxes domain (docs/architecture.md). */
export { openSystemClosesSince, valveClosesSince, valveCommandOnItsWay } from './commands.repo.ts';
export type { FirmwareListener, FirmwareProgressEvent, FirmwareCommandAnswer } from './firmware-hooks.ts';
export { deviceAuthenticator } from './device-auth.ts';
export {
  backedAccounts,
  findFlowbox,
  findFlowboxById,
  findFlowboxBySerial,
  listFlowboxes,
  liveSecretHash,
  lockDeviceAccounts,
  type FlowboxPath,
  type FlowboxRow,
} from './flowboxes.repo.ts';
export { hashSecret, newDeviceSecret, secretMatches } from './secrets.ts';
