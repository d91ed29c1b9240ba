export { ImageUpload } from './components/ImageUpload.tsx';
export { ImageView } from './components/ImageView.tsx';
export type { ImageTarget } from './images.ts';
