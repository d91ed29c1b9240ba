import type { Context } from '../context.ts';
import type { StoredReading } from './hooks.ts';
import { notifyLiveMany, type BatchFlowbox } from './telemetry.repo.ts';

type Logger = { warn: (obj: object, msg: string) => void };

/** How many flowboxes or zones a live throttle remembers before it forgets them all (bounded memory). */
export const LIVE_MEMORY = 100_000;

type ZoneFigures = { scope: BatchFlowbox['scope']; readings: number; volumeMl: number; latest: number };

/**
 * One `consumption` live message per zone at most every `everyMs` (issue #6): the first one at once,
 * the rest gathered and sent when the interval is over, so the last readings of a burst are told too.
 */
export class ConsumptionThrottle {
  private readonly pending = new Map<string, ZoneFigures>();
  private readonly lastSent = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Context,
    private readonly log: Logger,
    private readonly everyMs: number,
  ) {}

  add(stored: readonly StoredReading[], zones: Map<string, BatchFlowbox['scope']>): void {
    if (stored.length === 0) return;
    for (const r of stored) {
      const z =
        this.pending.get(r.zoneId) ??
        this.pending
          .set(r.zoneId, { scope: zones.get(r.zoneId)!, readings: 0, volumeMl: 0, latest: 0 })
          .get(r.zoneId)!;
      z.readings += 1;
      z.volumeMl += r.volumeMl;
      z.latest = Math.max(z.latest, r.measuredAt.getTime());
    }
    this.send();
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
  }

  /** Sends every zone whose interval is over; re-arms the timer for the others. */
  private send(): void {
    const now = this.ctx.now().getTime();
    const messages: object[] = [];
    let wait = Infinity;
    for (const [zoneId, z] of this.pending) {
      const last = this.lastSent.get(zoneId);
      const left = last === undefined ? 0 : last + this.everyMs - now;
      if (left > 0) {
        wait = Math.min(wait, left);
        continue;
      }
      this.pending.delete(zoneId);
      this.lastSent.set(zoneId, now);
      messages.push({
        type: 'consumption',
        customer_id: z.scope.customerId,
        site_id: z.scope.siteId,
        building_id: z.scope.buildingId,
        zone_id: zoneId,
        readings: z.readings,
        volume_ml: z.volumeMl,
        latest_measured_at: new Date(z.latest).toISOString(),
      });
    }
    if (this.lastSent.size > LIVE_MEMORY) this.lastSent.clear();
    if (messages.length > 0)
      this.sending = this.sending
        .then(() => notifyLiveMany(this.ctx.db, messages))
        .catch((error: unknown) => this.log.warn({ err: error }, 'consumption live message failed'));
    if (wait !== Infinity && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.send();
      }, wait);
      this.timer.unref();
    }
  }
}
