/** What the rest of the server uses of the images domain (docs/architecture.md). */
export { importUploadedImages } from './images.import.ts';
