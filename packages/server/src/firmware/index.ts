export { signDownloadToken, verifyDownloadToken, type DownloadClaims } from './download-token.ts';
export { firmwareDownloadMetrics, firmwareMessageMetrics } from './download.metrics.ts';
export { findUpdateForDownload, type DownloadableUpdate } from './updates.repo.ts';
export { recordDownloadStart } from './updates.moves.ts';
export { RolloutRunner } from './rollouts.runner.ts';
