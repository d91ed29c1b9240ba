import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES, type MessageKey } from '@flowbox/shared';

/**
 * Where an image belongs and which of its fields it fills (docs/hierarchy.md, Images): the customer
 * logo, a site's logo or plan, a building's plan or picture.
 */
export type ImageTarget =
  | { owner: 'customer'; customerId: string; kind: 'logo' }
  | { owner: 'site'; customerId: string; siteId: string; kind: 'logo' | 'plan' }
  | { owner: 'building'; customerId: string; siteId: string; buildingId: string; kind: 'plan' | 'picture' };

/**
 * Refuses before sending what the server would refuse anyway, with the same catalogue message.
 * The declared type is only a first filter: the server still reads the file's magic bytes.
 */
export function imageFileProblem(file: { type: string; size: number }): MessageKey | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'errors.image_type';
  if (file.size > MAX_IMAGE_BYTES) return 'errors.image_too_large';
  return null;
}

export function uploadPathOf(target: ImageTarget): string {
  const customer = `/customers/${target.customerId}`;
  switch (target.owner) {
    case 'customer':
      return `${customer}/logo`;
    case 'site':
      return `${customer}/sites/${target.siteId}/images/${target.kind}`;
    case 'building':
      return `${customer}/sites/${target.siteId}/buildings/${target.buildingId}/images/${target.kind}`;
  }
}

/** Records hold the image's URL path (`/v1/images/<id>`); the API client adds `/v1` itself. */
export function apiPathOfImage(url: string): string {
  return url.startsWith('/v1/') ? url.slice('/v1'.length) : url;
}
