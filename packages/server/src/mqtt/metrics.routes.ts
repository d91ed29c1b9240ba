import { z } from 'zod';
import { requireInstanceRead } from '../access/access.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { JobRunner } from '../jobs/index.ts';
import { INGEST_DROP_REASONS, type DeviceLink } from '../devices/index.ts';

const count = z.number().int();
const MetricsSchema = z.object({
  messaging: z.boolean(),
  ingest: z
    .object({
      received: count,
      applied: count,
      duplicates: count,
      dropped: z.record(z.enum(INGEST_DROP_REASONS), count),
      /** Left unacknowledged because storing them failed: sent again by the broker or the device. */
      not_stored: count,
      /** States, events and acks dated by a clock outside the window: applied all the same. */
      misdated: count,
    })
    .nullable(),
  /** The telemetry batch writer (docs/telemetry.md): readings stored, known already, batches; and now queued and being written. */
  /** Messages sent to devices (commands, acknowledgements), and those the MQTT client could not send. */
  outbound: z.object({ published: count, failed: count }).nullable(),
  telemetry: z
    .object({
      batches: count,
      stored: count,
      duplicates: count,
      unknown_device: count,
      failed_batches: count,
      rejected: count,
      splits: count,
      retries: count,
      largest_batch: count,
      queued: count,
      writing: count,
    })
    .nullable(),
  broker: z
    .object({
      connected: count,
      connections_accepted: count,
      refused_unknown_identity: count,
      refused_unknown_serial: count,
      refused_wrong_secret: count,
      refused_publish: count,
      refused_subscribe: count,
    })
    .nullable(),
  /** Device accounts on Mosquitto's dynamic security, when the server manages them (docs/protocol.md). */
  accounts: z
    .object({
      granted: count,
      grant_failures: count,
      revoked: count,
      revoke_failures: count,
      reconcile_passes: count,
      reconcile_failures: count,
      reconcile_removed: count,
      missing: count,
    })
    .nullable(),
  /** The instance's periodic jobs (jobs/), by name: a beat is skipped while the job's pass still runs. */
  jobs: z.record(
    z.string(),
    z.object({
      passes: count,
      skipped_beats: count,
      failures: count,
      last_pass_ms: count,
      max_pass_ms: count,
      total_pass_ms: count,
    }),
  ),
});

/** Device messaging counters of this instance (issue #4: refusals and drops are counted), for provider managers. */
export function metricsRoutes(app: App, link: DeviceLink, jobs: JobRunner): void {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['health'],
        security: [{ bearer: [] }],
        summary: "This instance's device messaging and job counters since it started",
        response: { 200: MetricsSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireInstanceRead(actorOf(request));
      const counters = link.counters;
      return {
        messaging: link.online,
        ingest: counters?.ingest ?? null,
        outbound: counters?.outbound ?? null,
        telemetry: counters?.telemetry ?? null,
        broker: counters?.broker ?? null,
        accounts: counters?.accounts ?? null,
        jobs: jobs.counters(),
      };
    },
  );
}
