import type { Actor } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { recordEvents } from '../events/index.ts';
import { notifyLiveAll } from '../live/index.ts';
import type { HierarchyNode } from '../db/scope.ts';
import { listFlowboxesUnder, revokeCredentialsUnder } from './flowboxes.repo.ts';

/**
 * Deleting a zone, building, site or customer deletes its flowboxes by foreign-key cascade
 * (docs/hierarchy.md). Their devices must lose the broker as surely as when they are detached one
 * by one (docs/protocol.md "Unpairing and detaching"), so the deleting transaction calls this
 * before its delete: the credentials are revoked, the log says, per flowbox, that it was detached
 * and why, and open screens are told each is gone (`flowbox_removed`, sent at commit like an
 * unpair's). It answers the serials to cut off once the transaction has committed
 * (`DeviceLink.disconnectAll`): a rolled-back delete must leave the devices connected.
 */
export async function retireFlowboxesUnder(
  db: Db,
  node: HierarchyNode,
  actor: Pick<Actor, 'id' | 'name'>,
  at: Date,
): Promise<string[]> {
  const doomed = await listFlowboxesUnder(db, node);
  if (doomed.length === 0) return [];
  await revokeCredentialsUnder(db, node, at);
  const cause = `${kindOf(node)}_deleted`;
  await recordEvents(
    db,
    at,
    doomed.map(({ flowbox, scope }) => ({
      action: 'detached' as const,
      object: 'flowbox' as const,
      objectId: flowbox.id,
      objectLabel: flowbox.serial,
      // A customer's log goes with it: the lines stay in the provider's, like the customer's own.
      scope: 'customerId' in node ? { customerId: null } : scope,
      by: actor,
      origin: 'web' as const,
      changedFields: [cause],
    })),
  );
  await notifyLiveAll(
    db,
    doomed.map(({ flowbox, scope }) => ({
      type: 'flowbox_removed' as const,
      flowbox_id: flowbox.id,
      customer_id: scope.customerId,
      site_id: scope.siteId,
      zone_id: scope.zoneId,
    })),
  );
  return doomed.map(({ flowbox }) => flowbox.serial);
}

function kindOf(node: HierarchyNode): 'zone' | 'building' | 'site' | 'customer' {
  if ('zoneId' in node) return 'zone';
  if ('buildingId' in node) return 'building';
  if ('siteId' in node) return 'site';
  return 'customer';
}
