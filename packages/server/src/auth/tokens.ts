import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors.ts';

export type AccessClaims = { userId: string; sessionId: string };
export type RefreshClaims = AccessClaims & { tokenId: string };
/** A checked access token's claims, and when it stops being valid (epoch milliseconds). */
export type VerifiedAccess = AccessClaims & { expiresAt: number };

type TokenKind = 'access' | 'refresh';

/** Signs and checks the two JWTs of a session (HS256). The clock is injected for tests. */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttl: { access: number; refresh: number },
    private readonly now: () => Date,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  get accessTtl(): number {
    return this.ttl.access;
  }

  signAccess(claims: AccessClaims): Promise<string> {
    return this.sign('access', claims, randomUUID(), this.ttl.access);
  }

  signRefresh(claims: RefreshClaims): Promise<string> {
    return this.sign('refresh', claims, claims.tokenId, this.ttl.refresh);
  }

  refreshExpiry(): Date {
    return new Date(this.now().getTime() + this.ttl.refresh * 1000);
  }

  async verifyAccess(token: string): Promise<VerifiedAccess> {
    const payload = await this.verify(token, 'access');
    return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const payload = await this.verify(token, 'refresh');
    return { userId: payload.sub, sessionId: payload.sid, tokenId: payload.jti };
  }

  private async sign(kind: TokenKind, claims: AccessClaims, jti: string, ttl: number): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ sid: claims.sessionId, typ: kind })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .sign(this.key);
  }

  /**
   * Expired, forged, garbled, or of the other kind: either way the caller's authentication is
   * over, a 401 the web answers with the refresh flow or the sign-in page (spec §4).
   */
  private async verify(token: string, kind: TokenKind) {
    const payload = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: this.now() }).then(
      (verified) => verified.payload,
      () => undefined,
    );
    if (
      payload?.typ !== kind ||
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.exp !== 'number' ||
      !payload.jti
    ) {
      throw new AppError('errors.auth_expired');
    }
    return { sub: payload.sub, sid: payload.sid, jti: payload.jti, exp: payload.exp };
  }
}

/** A random single-use secret for an emailed link, and the hash that is stored instead of it. */
export function createLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
