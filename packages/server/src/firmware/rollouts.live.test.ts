import { randomUUID } from 'node:crypto';
import { ROLES, type LiveMessage, type Role } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { makeActor, mayReceive } from '../access/access.ts';

/* Who is told live of a rollout (docs/firmware.md "Activity log and live updates"): whoever may read it. */

const customerA = randomUUID();
const siteA1 = randomUUID();
const actor = (role: Role, customerId: string | null, siteIds: string[] = []) =>
  makeActor(
    { id: randomUUID(), firstname: 'A', lastname: 'B', role, customerId, language: 'en', permissions: {} },
    siteIds,
    'session',
  );
const rollout = (customer_id: string | null, site_id: string | null): LiveMessage => ({
  type: 'firmware_rollout',
  rollout_id: randomUUID(),
  state: 'running',
  customer_id,
  site_id,
});

describe('a rollout live message', () => {
  const provider = actor(ROLES.flovea_manager, null);
  const cmA = actor(ROLES.customer_manager, customerA);
  const smA1 = actor(ROLES.site_manager, customerA, [siteA1]);
  const cmB = actor(ROLES.customer_manager, randomUUID());

  it('over the fleet reaches provider managers only', () => {
    const message = rollout(null, null);
    expect([provider, cmA, smA1, cmB].map((a) => mayReceive(a, message))).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('over a customer reaches its customer managers, not its site managers', () => {
    const message = rollout(customerA, null);
    expect([provider, cmA, smA1, cmB].map((a) => mayReceive(a, message))).toEqual([true, true, false, false]);
  });

  it('over a site reaches whoever reads the site', () => {
    const message = rollout(customerA, siteA1);
    expect([provider, cmA, smA1, cmB].map((a) => mayReceive(a, message))).toEqual([true, true, true, false]);
  });
});
