/** What the rest of the server uses of the images domain (docs/architecture.md). */
export { deleteImagesUnder } from './images.repo.ts';
export { importUploadedImages } from './images.import.ts';
