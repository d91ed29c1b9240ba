import type { LiveMessage, LiveTicket } from '@flowbox/shared';
import {
  createContext,
  createElement,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { api } from './api-client.ts';
import { LIVE_TYPES, parseLiveMessage } from './live-messages.ts';

export type LiveStatus = 'connecting' | 'connected' | 'reconnecting';
export type LiveType = LiveMessage['type'];
type MessageOf<K extends LiveType> = Extract<LiveMessage, { type: K }>;
type Listener = (message: LiveMessage) => void;

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** 1 s, 2 s, 4 s… up to 30 s: a server restart is met at once, an outage is not hammered. */
export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/** What the channel needs of an EventSource: its events, its opening and its failures. */
export type LiveStream = {
  addEventListener: (type: string, listener: (event: MessageEvent<string>) => void) => void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  close: () => void;
};

export type LiveChannelOptions = {
  /** A fresh ticket for each stream (`POST /live/ticket`). */
  ticket: () => Promise<string>;
  connect: (url: string) => LiveStream;
  onStatus: (status: LiveStatus) => void;
  onMessage: (message: LiveMessage) => void;
  /**
   * Each time a stream opens, the first time too: what changed before it opened was never pushed,
   * so what was read before then (a list fetched while the page loaded) must be read again.
   */
  onOpened: () => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
};

/**
 * The live channel without React (DESIGN.md §6): a ticket, then `GET /v1/live/stream`. The
 * browser's own retry would reuse an expired ticket, so every error closes the stream and a fresh
 * ticket opens the next, after a growing delay. Answers the function that stops it.
 */
export function openLiveChannel(options: LiveChannelOptions): () => void {
  const setTimer = options.setTimer ?? ((run, ms) => window.setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => window.clearTimeout(timer as number));
  let source: LiveStream | null = null;
  let timer: unknown;
  let failures = 0;
  let stopped = false;

  // The server ends each stream when the session's access token would expire: a stream that was
  // open is renewed at once; only failures to connect wait, longer each time.
  const retry = (wasStreaming: boolean) => {
    source?.close();
    source = null;
    if (stopped) return;
    failures = wasStreaming ? 0 : failures + 1;
    options.onStatus('reconnecting');
    timer = setTimer(() => void open(), wasStreaming ? 0 : retryDelay(failures));
  };
  async function open() {
    try {
      const ticket = await options.ticket();
      if (stopped) return;
      const dispatch = (event: MessageEvent<string>) => {
        const message = parseLiveMessage(event.data);
        if (message) options.onMessage(message);
      };
      const stream = options.connect(`/v1/live/stream?ticket=${encodeURIComponent(ticket)}`);
      source = stream;
      let streaming = false;
      for (const type of LIVE_TYPES) stream.addEventListener(type, dispatch);
      stream.onopen = () => {
        streaming = true;
        failures = 0;
        options.onStatus('connected');
        options.onOpened();
      };
      stream.onerror = () => retry(streaming);
    } catch {
      retry(false);
    }
  }
  void open();
  return () => {
    stopped = true;
    clearTimer(timer);
    source?.close();
  };
}

type LiveConnection = {
  status: LiveStatus;
  /** Opens the channel of a provider that waits for its listeners (useOpenLive). */
  open: () => void;
  subscribe: (listener: Listener) => () => void;
  /** Called each time the stream opens, the first time too: what changed before was never pushed. */
  onReconnected: (listener: () => void) => () => void;
};

const LiveContext = createContext<LiveConnection | null>(null);

/**
 * The signed-in user's one live channel (openLiveChannel) for the components below. Unmounting
 * (logging out leaves the signed-in layout) closes it. `waitForListeners`: the channel opens only
 * once a component below calls useOpenLive — the app-wide listeners, loaded after the first paint,
 * must miss neither a message nor the first opening (whose refetch covers what was read before).
 */
export function LiveProvider({
  children,
  waitForListeners = false,
}: {
  children: ReactNode;
  waitForListeners?: boolean;
}) {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [opening, setOpening] = useState(!waitForListeners);
  const open = useCallback(() => setOpening(true), []);
  const listeners = useRef(new Set<Listener>());
  const reconnectListeners = useRef(new Set<() => void>());
  const [connection] = useState<Omit<LiveConnection, 'status' | 'open'>>(() => ({
    subscribe: (listener) => {
      listeners.current.add(listener);
      return () => listeners.current.delete(listener);
    },
    onReconnected: (listener) => {
      reconnectListeners.current.add(listener);
      return () => reconnectListeners.current.delete(listener);
    },
  }));

  useEffect(() => {
    if (!opening) return;
    return openLiveChannel({
      ticket: async () => (await api.post<LiveTicket>('/live/ticket')).ticket,
      connect: (url) => new EventSource(url),
      onStatus: setStatus,
      onMessage: (message) => {
        for (const listener of listeners.current) listener(message);
      },
      onOpened: () => {
        for (const listener of reconnectListeners.current) listener();
      },
    });
  }, [opening]);

  return createElement(LiveContext, { value: { ...connection, open, status } }, children);
}

/**
 * Opens a LiveProvider's channel that waits for its listeners, once the calling component has
 * mounted: its children's effects, their subscriptions, have run before its own.
 */
export function useOpenLive(): void {
  const { open } = useLiveConnection();
  useEffect(open, [open]);
}

function useLiveConnection(): LiveConnection {
  const connection = use(LiveContext);
  if (!connection) throw new Error('live updates need a LiveProvider');
  return connection;
}

export function useLiveStatus(): LiveStatus {
  return useLiveConnection().status;
}

/**
 * Calls `handler` with each pushed message of the given kinds while the component is mounted, and
 * `catchUp` each time the live stream opens, the first time included. Both are required: a stream
 * has gaps (it ends with each access token, a network drops it), and a message pushed in a gap is
 * never pushed again, so whatever a message would have changed on screen must be read again when
 * the stream is back. A screen that applied messages without catching up would show a closed
 * valve as open until reloaded.
 */
export function useLiveMessages<K extends LiveType>(
  types: readonly K[],
  handler: (message: MessageOf<K>) => void,
  catchUp: () => void,
): void {
  const { subscribe, onReconnected } = useLiveConnection();
  const latest = useRef({ handler, catchUp });
  useEffect(() => {
    latest.current = { handler, catchUp };
  }, [handler, catchUp]);
  const key = types.join(',');
  useEffect(() => {
    const wanted = new Set<string>(key.split(','));
    return subscribe((message) => {
      if (wanted.has(message.type)) latest.current.handler(message as MessageOf<K>);
    });
  }, [subscribe, key]);
  useEffect(() => onReconnected(() => latest.current.catchUp()), [onReconnected]);
}
