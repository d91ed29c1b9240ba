/**
 * Images of customers, sites and buildings (docs/hierarchy.md, Images). The server reads the type
 * from the file's first bytes and keeps these only: no script-bearing format (SVG, HTML) is ever
 * stored or served (issue #3, spec §8 image replace).
 */
export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** What a browser may offer in its file picker: the same types by MIME name. */
export const ACCEPTED_IMAGE_TYPES = Object.values(IMAGE_TYPES);

/** Larger files are refused with 413 "errors.image_too_large". */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
