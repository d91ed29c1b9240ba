export { signDownloadToken, verifyDownloadToken, type DownloadClaims } from './download-token.ts';
export { firmwareDownloadMetrics } from './download.metrics.ts';
