/** What the rest of the server uses of the images domain (docs/architecture.md). */
export { removeImageFiles } from './images.files.ts';
export { imageFilesUnder } from './images.repo.ts';
