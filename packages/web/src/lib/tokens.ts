import Cookies from 'js-cookie';
import type { Tokens } from '@flowbox/shared';

const ACCESS = 'access_token';
const REFRESH = 'refresh_token';
/** Cookies outlive the browser session as long as the server's default refresh token lifetime. */
const LIFETIME_DAYS = 30;

/** spec §9: token cookies have path /, are secure on https and sameSite strict. */
function cookieOptions(): Cookies.CookieAttributes {
  return {
    path: '/',
    sameSite: 'strict',
    secure: window.location.protocol === 'https:',
    expires: LIFETIME_DAYS,
  };
}

export function accessToken(): string | undefined {
  return Cookies.get(ACCESS);
}

export function refreshToken(): string | undefined {
  return Cookies.get(REFRESH);
}

export function setAccessToken(token: string): void {
  Cookies.set(ACCESS, token, cookieOptions());
}

export function saveTokens(tokens: Pick<Tokens, 'access_token' | 'refresh_token'>): void {
  Cookies.set(ACCESS, tokens.access_token, cookieOptions());
  Cookies.set(REFRESH, tokens.refresh_token, cookieOptions());
}

export function clearTokens(): void {
  Cookies.remove(ACCESS, { path: '/' });
  Cookies.remove(REFRESH, { path: '/' });
}
