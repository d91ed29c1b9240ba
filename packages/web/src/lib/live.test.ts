import { describe, expect, it, vi } from 'vitest';
import { parseLiveMessage, retryDelay } from './live.ts';

// The API client's i18n set-up needs a browser; these tests never call the API.
vi.mock('./i18n/index.ts', () => ({ i18n: { t: (key: string) => key }, currentLanguage: () => 'en' }));

describe('live channel', () => {
  it('waits 1 s after the first failure, doubling up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('reads a pushed command outcome and ignores what it does not understand', () => {
    const command = {
      id: '0b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
      flowbox_id: '1b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
      name: 'valve_close',
      params: {},
      status: 'done',
      attempts: 1,
      issued_at: '2026-01-05T10:00:00.000Z',
      expires_at: '2026-01-05T10:02:00.000Z',
      completed_at: '2026-01-05T10:00:01.000Z',
      result: null,
      issued_by: null,
    };
    const scope = {
      customer_id: '2b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
      site_id: '3b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
      zone_id: '4b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
    };
    expect(parseLiveMessage(JSON.stringify({ type: 'command', command, ...scope }))).toMatchObject({
      type: 'command',
      command: { status: 'done' },
    });
    expect(parseLiveMessage(JSON.stringify({ type: 'alert', id: 1 }))).toBeNull();
    expect(parseLiveMessage('{not json')).toBeNull();
  });
});
