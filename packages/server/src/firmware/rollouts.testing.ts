import { ROLES, type Rollout } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../db/client.ts';
import { firmwareUpdates, flowboxes } from '../db/schema.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { createTestApp, createUser, type ApiClient, type TestApp } from '../test/harness.ts';

/*
 * The world the rollout tests share (docs/firmware.md "Rollouts"): an app, the real ingest its
 * devices answer through, and a provider manager who creates the rollouts.
 */

/**
 * A fresh app, the ingest its devices speak through, and a provider manager with this email. The
 * tests move the clock past an access token's life: each signs the manager in afresh.
 */
export async function startRolloutWorld(
  providerEmail: string,
): Promise<{ t: TestApp; ingest: FlowboxIngest }> {
  const t = await createTestApp();
  const ingest = new FlowboxIngest(
    t.services.context,
    t.services.flowboxes,
    t.services.commands,
    { warn: () => {} },
    180,
  );
  await createUser(t.db, { email: providerEmail, role: ROLES.flovea_manager });
  return { t, ingest };
}

/** A rollout the provider manager creates; it must be accepted. */
export async function createRollout(provider: ApiClient, body: Record<string, unknown>): Promise<Rollout> {
  const res = await provider.post('/v1/firmware/rollouts', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Rollout>();
}

/** A rollout's updates, each with its flowbox's serial, in the order of the serials. */
export function updatesOf(db: Db, rolloutId: string) {
  return db
    .select({ update: firmwareUpdates, serial: flowboxes.serial })
    .from(firmwareUpdates)
    .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
    .where(eq(firmwareUpdates.rolloutId, rolloutId))
    .orderBy(flowboxes.serial);
}
