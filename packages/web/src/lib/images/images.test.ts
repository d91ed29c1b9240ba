import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '@flowbox/shared';
import { apiPathOfImage, imageFileProblem, uploadPathOf } from './images.ts';

describe('image checks before upload', () => {
  it('accepts PNG, JPEG and WebP up to 5 MiB', () => {
    expect(imageFileProblem({ type: 'image/png', size: 10 })).toBeNull();
    expect(imageFileProblem({ type: 'image/jpeg', size: MAX_IMAGE_BYTES })).toBeNull();
    expect(imageFileProblem({ type: 'image/webp', size: 1 })).toBeNull();
  });

  it('refuses script-bearing and other formats with the server message', () => {
    expect(imageFileProblem({ type: 'image/svg+xml', size: 10 })).toBe('errors.image_type');
    expect(imageFileProblem({ type: 'text/html', size: 10 })).toBe('errors.image_type');
    expect(imageFileProblem({ type: '', size: 10 })).toBe('errors.image_type');
  });

  it('refuses a file one byte over 5 MiB', () => {
    expect(imageFileProblem({ type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe('errors.image_too_large');
  });
});

describe('image paths', () => {
  it('names the upload call of each owner and kind', () => {
    expect(uploadPathOf({ owner: 'customer', customerId: 'c', kind: 'logo' })).toBe('/customers/c/logo');
    expect(uploadPathOf({ owner: 'site', customerId: 'c', siteId: 's', kind: 'plan' })).toBe(
      '/customers/c/sites/s/images/plan',
    );
    expect(
      uploadPathOf({ owner: 'building', customerId: 'c', siteId: 's', buildingId: 'b', kind: 'picture' }),
    ).toBe('/customers/c/sites/s/buildings/b/images/picture');
  });

  it('reads a stored image through the API client base', () => {
    expect(apiPathOfImage('/v1/images/abc')).toBe('/images/abc');
  });
});
