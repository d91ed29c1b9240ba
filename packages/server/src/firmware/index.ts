export { signDownloadToken, verifyDownloadToken, type DownloadClaims } from './download-token.ts';
