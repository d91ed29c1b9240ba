import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The token cookies, shared by every tab of a browser: a jar the test writes as another tab would.
const jar = vi.hoisted(() => ({
  access: undefined as string | undefined,
  refresh: undefined as string | undefined,
}));
vi.mock('./tokens.ts', () => ({
  accessToken: () => jar.access,
  refreshToken: () => jar.refresh,
  setAccessToken: (token: string) => (jar.access = token),
  saveTokens: (tokens: { access_token: string; refresh_token: string }) => {
    jar.access = tokens.access_token;
    jar.refresh = tokens.refresh_token;
  },
  clearTokens: () => {
    jar.access = undefined;
    jar.refresh = undefined;
  },
}));
// The client's i18n set-up needs a browser; refusals here carry the server's message.
vi.mock('./i18n/index.ts', () => ({ i18n: { t: (key: string) => key }, currentLanguage: () => 'en' }));

const { apiRequest, setSessionEndedHandler } = await import('./api-client.ts');

type Call = { path: string; bearer: string | undefined };

/**
 * A server whose one valid access token is `valid`, and whose refresh (spec §4: the refresh token as
 * the Bearer) answers new tokens for the tokens it knows, within the reuse grace.
 */
function server(options: { valid: string; refreshTokens: string[]; whileFirstCallIsRefused?: () => void }) {
  const calls: Call[] = [];
  let issued = 0;
  let valid = options.valid;
  let first = true;
  vi.stubGlobal('fetch', (url: string, init: { headers: Record<string, string> }) => {
    const bearer = init.headers.Authorization?.replace('Bearer ', '');
    const path = url.replace('/v1', '');
    calls.push({ path, bearer });
    const json = (status: number, body: unknown) =>
      Promise.resolve(
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
      );
    if (path === '/users/refresh') {
      if (!bearer || !options.refreshTokens.includes(bearer))
        return json(401, { code: 'errors.auth_expired', message: 'Authentication expired' });
      issued++;
      valid = `A${issued + 1}`;
      options.refreshTokens.push(`R${issued + 1}`);
      return json(200, {
        access_token: valid,
        refresh_token: `R${issued + 1}`,
        token_type: 'Bearer',
        expires_in: 5,
      });
    }
    if (bearer === valid) return json(200, { id: 'me' });
    if (first) {
      first = false;
      options.whileFirstCallIsRefused?.();
    }
    return json(401, { code: 'errors.auth_expired', message: 'Authentication expired' });
  });
  return calls;
}

describe('a call refused for an expired access token', () => {
  const ended: string[] = [];
  beforeEach(() => {
    ended.length = 0;
    setSessionEndedHandler((reason) => ended.push(reason));
    // A signed-in screen: the sign-in page never refreshes.
    vi.stubGlobal('window', { location: { pathname: '/' } });
    // An access token that has expired, and its session's refresh token.
    jar.access = 'A1';
    jar.refresh = 'R1';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  // Alone, or as another tab starts its refresh while this call is refused: the shared access cookie
  // then holds the refresh token until that tab's answer comes (api-client.ts refreshSession), and
  // is never sent as an access token.
  it.each([
    { when: 'alone', whileFirstCallIsRefused: undefined },
    {
      when: "while another tab's refresh is on the wire",
      whileFirstCallIsRefused: () => (jar.access = 'R1'),
    },
  ])('refreshes with the refresh token and is sent again ($when)', async ({ whileFirstCallIsRefused }) => {
    const calls = server({ valid: 'none yet', refreshTokens: ['R1'], whileFirstCallIsRefused });
    await expect(apiRequest('/users/me')).resolves.toEqual({ id: 'me' });
    expect(calls).toEqual([
      { path: '/users/me', bearer: 'A1' },
      { path: '/users/refresh', bearer: 'R1' },
      { path: '/users/me', bearer: 'A2' },
    ]);
    expect(ended).toEqual([]);
  });

  it('is sent again with the new access token another tab has already saved', async () => {
    const calls = server({
      valid: 'A9',
      refreshTokens: ['R1'],
      whileFirstCallIsRefused: () => {
        jar.access = 'A9';
        jar.refresh = 'R9';
      },
    });
    await expect(apiRequest('/users/me')).resolves.toEqual({ id: 'me' });
    expect(calls).toEqual([
      { path: '/users/me', bearer: 'A1' },
      { path: '/users/me', bearer: 'A9' },
    ]);
  });

  it('ends the session when the server refuses the refresh', async () => {
    jar.refresh = 'R-revoked';
    server({ valid: 'none yet', refreshTokens: [] });
    await expect(apiRequest('/users/me')).rejects.toMatchObject({ status: 401 });
    expect(ended).toEqual(['expired']);
    expect(jar.refresh).toBeUndefined();
  });
});
