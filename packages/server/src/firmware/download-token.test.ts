import { describe, expect, it } from 'vitest';
import { signDownloadToken, verifyDownloadToken } from './download-token.ts';

const secret = 'a'.repeat(48);
const now = new Date('2026-11-26T08:00:00Z');
const claims = {
  serial: 'FB-0001',
  imageId: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10',
  updateId: '0b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
  expiresAt: new Date('2026-11-26T09:00:00Z'),
};

describe('a firmware download token', () => {
  it('gives back what it was signed with', () => {
    expect(verifyDownloadToken(signDownloadToken(claims, secret), secret, now)).toEqual(claims);
  });

  it('is refused once expired', () => {
    expect(verifyDownloadToken(signDownloadToken(claims, secret), secret, claims.expiresAt)).toBeNull();
  });

  it('is refused when signed with another secret', () => {
    expect(verifyDownloadToken(signDownloadToken(claims, 'b'.repeat(48)), secret, now)).toBeNull();
  });

  it('cannot be moved to another serial, image, update or expiry', () => {
    const token = signDownloadToken(claims, secret);
    const parts = token.split('.');
    for (const [i, value] of [
      [1, 'FB-0002'],
      [2, '7f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10'],
      [3, '1b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10'],
      [4, String(Number(parts[4]) + 3600)],
    ] as const) {
      const forged = parts.map((p, j) => (j === i ? value : p)).join('.');
      expect(verifyDownloadToken(forged, secret, now)).toBeNull();
    }
  });

  it.each(['', 'f1', 'x.y.z.w.v.u', `${'f1.'.repeat(5)}`, 'f1.FB/1.a.b.1.c', 'A'.repeat(500)])(
    'refuses garbage %#',
    (token) => {
      expect(verifyDownloadToken(token, secret, now)).toBeNull();
    },
  );
});
