import { LiveMessageSchema, type LiveMessage, type LiveTicket } from '@flowbox/shared';
import { createContext, createElement, use, useEffect, useRef, useState, type ReactNode } from 'react';
import { api } from './api-client.ts';

export type LiveStatus = 'connecting' | 'connected' | 'reconnecting';
export type LiveType = LiveMessage['type'];
type MessageOf<K extends LiveType> = Extract<LiveMessage, { type: K }>;
type Listener = (message: LiveMessage) => void;

const LIVE_TYPES: readonly LiveType[] = LiveMessageSchema.options.map((option) => option.shape.type.value);
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** 1 s, 2 s, 4 s… up to 30 s: a server restart is met at once, an outage is not hammered. */
export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/** A pushed message as the server sent it, or null when it is not one we understand. */
export function parseLiveMessage(data: string): LiveMessage | null {
  try {
    const parsed = LiveMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type LiveConnection = {
  status: LiveStatus;
  subscribe: (listener: Listener) => () => void;
  /** Called after a reconnection: what changed meanwhile was never pushed. */
  onReconnected: (listener: () => void) => () => void;
};

const LiveContext = createContext<LiveConnection | null>(null);

/**
 * The signed-in user's one live channel (DESIGN.md §6): a ticket from `POST /live/ticket` (an
 * EventSource cannot send the Bearer header), then `GET /v1/live/stream`. The browser's own retry
 * would reuse an expired ticket, so every error closes the stream and a fresh ticket opens the next,
 * after a growing delay. Unmounting (logging out leaves the signed-in layout) closes it.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const listeners = useRef(new Set<Listener>());
  const reconnectListeners = useRef(new Set<() => void>());
  const [connection] = useState<Omit<LiveConnection, 'status'>>(() => ({
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
    let source: EventSource | null = null;
    let timer: number | undefined;
    let failures = 0;
    let wasOpen = false;
    let stopped = false;

    const dispatch = (event: MessageEvent<string>) => {
      const message = parseLiveMessage(event.data);
      if (message) for (const listener of listeners.current) listener(message);
    };
    // The server ends each stream when the session's access token would expire: a stream that was
    // open is renewed at once; only failures to connect wait, longer each time.
    const retry = (wasStreaming: boolean) => {
      source?.close();
      source = null;
      if (stopped) return;
      failures = wasStreaming ? 0 : failures + 1;
      setStatus('reconnecting');
      timer = window.setTimeout(() => void open(), wasStreaming ? 0 : retryDelay(failures));
    };
    async function open() {
      try {
        const { ticket } = await api.post<LiveTicket>('/live/ticket');
        if (stopped) return;
        const stream = new EventSource(`/v1/live/stream?ticket=${encodeURIComponent(ticket)}`);
        source = stream;
        let streaming = false;
        for (const type of LIVE_TYPES) stream.addEventListener(type, dispatch);
        stream.onopen = () => {
          streaming = true;
          failures = 0;
          setStatus('connected');
          if (wasOpen) for (const listener of reconnectListeners.current) listener();
          wasOpen = true;
        };
        stream.onerror = () => retry(streaming);
      } catch {
        retry(false);
      }
    }
    void open();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      source?.close();
    };
  }, []);

  return createElement(LiveContext, { value: { ...connection, status } }, children);
}

function useLiveConnection(): LiveConnection {
  const connection = use(LiveContext);
  if (!connection) throw new Error('live updates need a LiveProvider');
  return connection;
}

export function useLiveStatus(): LiveStatus {
  return useLiveConnection().status;
}

/** Calls `handler` with each pushed message of the given kinds while the component is mounted. */
export function useLiveMessages<K extends LiveType>(
  types: readonly K[],
  handler: (message: MessageOf<K>) => void,
): void {
  const { subscribe } = useLiveConnection();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  }, [handler]);
  const key = types.join(',');
  useEffect(() => {
    const wanted = new Set<string>(key.split(','));
    return subscribe((message) => {
      if (wanted.has(message.type)) latest.current(message as MessageOf<K>);
    });
  }, [subscribe, key]);
}

/** Calls `handler` after each reconnection, to read again what may have changed meanwhile. */
export function useLiveReconnected(handler: () => void): void {
  const { onReconnected } = useLiveConnection();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  }, [handler]);
  useEffect(() => onReconnected(() => latest.current()), [onReconnected]);
}
