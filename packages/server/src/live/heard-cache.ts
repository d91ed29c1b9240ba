import type { LiveHub } from './live.ts';

/** What a cache needs of the live updates' listening connection. */
export type Notifications = Pick<
  LiveHub,
  'listenTo' | 'onHearingChange' | 'listening' | 'heard' | 'heardSince' | 'mark'
>;

/** How many entries a cache keeps and how long one may be answered from memory at most. */
export type HeardCacheLimits = {
  /** Entries kept; the least recently used goes first. */
  max: number;
  /**
   * A second safety net behind the invalidations: an entry older than this is looked up again, so
   * even a lost notification the listening connection did not report is wrong for so long at most.
   */
  ttlMs: number;
};

type Entry<V> = { value: V; tags: readonly string[]; loadedAt: number };

/**
 * Records this instance may answer from memory only while it hears every change made to them, by
 * any instance and any path: database triggers NOTIFY each change with its transaction, and the
 * caller waits for `Notifications.heard` (live.ts) before it trusts a `get`. An entry is forgotten
 * by its key or by any of its tags (the user of a session, the building of a zone); any doubt (the
 * listening connection lost, or not up yet) forgets them all and keeps nothing until it is over.
 * Rules in docs/decisions.md "Sessions cached per instance" and "Zone overviews cached per instance".
 */
export class HeardCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** The keys of the entries each tag names, so that forgetting one costs what it forgets. */
  private readonly tagged = new Map<string, Set<string>>();
  /** Counts every forgetting: a lookup that began before one may have read what it forgot. */
  private generation = 0;
  private trusted = false;
  /** Requests answered from memory, and looked up (`/metrics`). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly now: () => number,
    private readonly limits: HeardCacheLimits,
  ) {}

  /** The value as last looked up, if nothing may have changed it since. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || !this.trusted) return undefined;
    if (this.now() - entry.loadedAt >= this.limits.ttlMs) {
      this.delete(key);
      return undefined;
    }
    // Least recently used first: a hit moves the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Taken before a lookup, given back with its answer to `remember`. */
  get version(): number {
    return this.generation;
  }

  /**
   * Keeps a lookup's answer, unless something was forgotten since it began (its answer may predate
   * that change) or the instance is not hearing the changes.
   */
  remember(key: string, value: V, tags: readonly string[], version: number): void {
    if (!this.trusted || version !== this.generation) return;
    this.delete(key);
    this.entries.set(key, { value, tags, loadedAt: this.now() });
    for (const tag of tags) {
      let keys = this.tagged.get(tag);
      if (!keys) this.tagged.set(tag, (keys = new Set()));
      keys.add(key);
    }
    if (this.entries.size > this.limits.max) this.delete(this.entries.keys().next().value!);
  }

  /** A change to the record with this key, or to one every entry tagged with it depends on. */
  forget(keyOrTag: string): void {
    this.generation++;
    this.delete(keyOrTag);
    const keys = this.tagged.get(keyOrTag);
    if (keys) for (const key of [...keys]) this.delete(key);
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
    this.tagged.clear();
  }

  /**
   * Whether every change is heard (the listening connection is up). Either way everything is
   * forgotten: changes may have been missed while it was down, or while it was coming up.
   */
  trust(hearing: boolean): void {
    this.trusted = hearing;
    this.forgetAll();
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.tagged.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.tagged.delete(tag);
    }
  }
}

/**
 * Keeps a cache told of the changes a channel announces (each payload a key or tag it forgets) and
 * of whether the instance hears them at all. Before `LiveHub.start`, as every `listenTo`.
 */
export function forgetOnNotify(
  notifications: Notifications,
  channel: string,
  cache: { forget(keyOrTag: string): void; trust(hearing: boolean): void },
): void {
  notifications.listenTo(channel, (payload) => cache.forget(payload));
  notifications.onHearingChange((hearing) => cache.trust(hearing));
  cache.trust(notifications.listening);
}

/**
 * Whether every change committed until now (or, given the `mark()` taken when the request
 * arrived, until then) has reached the caches; false: look it up instead. Called after a request
 * arrived, so what its caller did before sending it is heard.
 */
export async function heardEverything(
  notifications: Notifications | undefined,
  since?: number,
): Promise<boolean> {
  if (!notifications) return false;
  return (since === undefined ? notifications.heard() : notifications.heardSince(since)).then(
    () => true,
    () => false,
  );
}
