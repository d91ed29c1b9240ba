import { describe, expect, it, vi } from 'vitest';
import { parseLiveMessage } from './live-messages.ts';
import { openLiveChannel, retryDelay, type LiveStream } from './live.ts';

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

/** A stream the test opens, fails and feeds by hand. */
class FakeStream implements LiveStream {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
}

function channel() {
  const streams: FakeStream[] = [];
  const timers: (() => void)[] = [];
  const opened = vi.fn();
  const statuses: string[] = [];
  let tickets = 0;
  const stop = openLiveChannel({
    ticket: () => Promise.resolve(`ticket-${++tickets}`),
    connect: (url) => {
      const stream = new FakeStream(url);
      streams.push(stream);
      return stream;
    },
    onStatus: (status) => statuses.push(status),
    onMessage: () => undefined,
    onOpened: opened,
    setTimer: (run) => timers.push(run),
    clearTimer: () => undefined,
  });
  return { streams, timers, opened, statuses, stop };
}

describe('the live channel’s openings', () => {
  it('tells its listeners when the first stream opens, so what a page read before is read again', async () => {
    // The bug this catches: only reopenings were told, so an alert raised while the alerts page
    // loaded, before the first stream opened, stayed missing until the next refresh.
    const { streams, opened, statuses, stop } = channel();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(opened).not.toHaveBeenCalled();
    streams[0]!.onopen?.(new Event('open'));
    expect(opened).toHaveBeenCalledTimes(1);
    expect(statuses).toEqual(['connected']);
    stop();
    expect(streams[0]!.closed).toBe(true);
  });

  it('tells them again after a reopening, with a fresh ticket', async () => {
    const { streams, timers, opened, stop } = channel();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.onopen?.(new Event('open'));
    streams[0]!.onerror?.(new Event('error'));
    expect(streams[0]!.closed).toBe(true);
    timers.shift()!();
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]!.url).toBe('/v1/live/stream?ticket=ticket-2');
    expect(opened).toHaveBeenCalledTimes(1);
    streams[1]!.onopen?.(new Event('open'));
    expect(opened).toHaveBeenCalledTimes(2);
    stop();
  });
});
