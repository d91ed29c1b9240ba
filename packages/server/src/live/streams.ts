import type { LiveMessage } from '@flowbox/shared';
import { mayReceive, type Actor } from '../access/access.ts';
import { AppError } from '../errors.ts';

/** The signed-in session a stream follows (auth's access claims). */
export type LiveSession = { userId: string; sessionId: string };

/** Long enough to open the stream right after asking, short enough that a leaked URL is worthless. */
export const LIVE_TICKET_TTL_S = 60;

/**
 * The most live streams one user may hold open at once on one instance (docs/permissions.md "Live
 * updates"): a browser needs one a tab; a user holding hundreds would hold as many connections and
 * as much memory of the instance. One more is refused (429 `errors.live_streams_limit`).
 */
export const MAX_LIVE_STREAMS_PER_USER = 10;
/**
 * Messages held for a stream while its actor is read again (a few milliseconds); more, and the
 * stream ends: the browser opens another and reads again what it shows.
 */
const MAX_HELD_MESSAGES = 1000;

/** What a stream's connection does: write one message, or end. */
export type StreamOutput = { send: (message: LiveMessage) => void; end: () => void };

/** One open stream: what it was opened with, and what it shows now. */
export type LiveStream = {
  /** Hands the stream a live message; it writes it if its actor may read it. */
  deliver: (message: LiveMessage) => void;
  /** The connection closed: forget the stream. */
  closed: () => void;
};

type Stream = StreamOutput & {
  session: LiveSession;
  actor: Actor;
  /** Lookups of the actor started; only the latest one's answer counts. */
  checks: number;
  /** Messages that came while the actor was being read again, or undefined. */
  held: LiveMessage[] | undefined;
  over: boolean;
};

/**
 * This instance's live streams, each following its session as a request does (docs/permissions.md
 * "Live updates"): a change to its user, the user's sites, zones or sessions, made on any instance
 * (the `flowbox_auth` notifications that keep the sessions' cache right), reads its actor again at
 * once: the stream ends when the session is over (logout, revocation, user deleted or suspended)
 * and narrows when the scope does. Messages that come meanwhile wait for the answer and are sent
 * only if the new actor may read them. When the instance stops hearing notifications, it cannot
 * follow anything: every stream ends, and none opens until it hears again.
 */
export class LiveStreams {
  private readonly byUser = new Map<string, Set<Stream>>();
  private changes = 0;

  constructor(private readonly currentActor: (session: LiveSession) => Promise<Actor | undefined>) {}

  /** Taken before a new stream's actor is read: a change heard since then has it read again. */
  get version(): number {
    return this.changes;
  }

  /** Refuses a stream its user has no room for (MAX_LIVE_STREAMS_PER_USER). */
  admit(userId: string): void {
    if ((this.byUser.get(userId)?.size ?? 0) >= MAX_LIVE_STREAMS_PER_USER)
      throw new AppError('errors.live_streams_limit', { max: MAX_LIVE_STREAMS_PER_USER });
  }

  /** A stream opened with `actor`, read after `version` was taken. */
  open(session: LiveSession, actor: Actor, version: number, output: StreamOutput): LiveStream {
    this.admit(session.userId);
    const stream: Stream = { ...output, session, actor, checks: 0, held: undefined, over: false };
    let streams = this.byUser.get(session.userId);
    if (!streams) this.byUser.set(session.userId, (streams = new Set()));
    streams.add(stream);
    if (version !== this.changes) void this.readAgain(stream);
    return { deliver: (message) => this.deliver(stream, message), closed: () => this.forget(stream) };
  }

  /** A change to this user, its sites, zones or sessions: its streams read their actor again. */
  userChanged(userId: string): void {
    this.changes++;
    for (const stream of this.byUser.get(userId) ?? []) void this.readAgain(stream);
  }

  /** Ends every stream (the instance stopped hearing the changes, or stops). */
  endAll(): void {
    this.changes++;
    for (const streams of [...this.byUser.values()]) for (const stream of [...streams]) this.end(stream);
  }

  get size(): number {
    let size = 0;
    for (const streams of this.byUser.values()) size += streams.size;
    return size;
  }

  private deliver(stream: Stream, message: LiveMessage): void {
    if (stream.over) return;
    if (stream.held) {
      if (stream.held.length >= MAX_HELD_MESSAGES) this.end(stream);
      else stream.held.push(message);
    } else if (mayReceive(stream.actor, message)) stream.send(message);
  }

  private async readAgain(stream: Stream): Promise<void> {
    const check = ++stream.checks;
    stream.held ??= [];
    const actor = await this.currentActor(stream.session).catch(() => undefined);
    if (check !== stream.checks || stream.over) return;
    const held = stream.held;
    stream.held = undefined;
    if (!actor) return this.end(stream);
    stream.actor = actor;
    for (const message of held) this.deliver(stream, message);
  }

  private end(stream: Stream): void {
    this.forget(stream);
    stream.end();
  }

  private forget(stream: Stream): void {
    stream.over = true;
    const streams = this.byUser.get(stream.session.userId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byUser.delete(stream.session.userId);
  }
}
