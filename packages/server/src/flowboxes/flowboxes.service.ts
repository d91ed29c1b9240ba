import {
  PROTOCOL_VERSION,
  type EventAction,
  type Flowbox,
  type PairingPrepareSchema,
  type PairingRefusalReason,
  type PairingRequest,
  PAIRING_REQUEST_RETRY_S,
  typedNameMatches,
} from '@flowbox/shared';
import type { z } from 'zod';
import { requireManager, requireSiteManage, requireZoneRead, type Actor } from '../access/access.ts';
import { hasSubscription } from '../billing/index.ts';
import { findFloor } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { HierarchyNode, LocatedFlowbox } from '../db/scope.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { recordEvent } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { notifyLive } from '../live/index.ts';
import { toApiFlowbox, type DeviceLink } from '../devices/index.ts';
import { findZoneRow, type ZoneRow } from '../zones/index.ts';
import {
  deleteFlowbox,
  findFlowbox,
  findFlowboxBySerial,
  insertCredential,
  liveCredentialIssuedAt,
  insertFlowbox,
  listFlowboxes,
  revokeCredentials,
  revokeOrphanCredentials,
  serialTaken,
  updateFlowboxAtStep,
  type FlowboxPath,
  type NewFlowboxRow,
} from './flowboxes.repo.ts';
import { retireFlowboxesUnder } from './removal.ts';
import { hashSecret, newDeviceSecret } from './secrets.ts';

type PrepareInput = z.output<typeof PairingPrepareSchema>;
type Who = { by: Pick<Actor, 'id' | 'name'> | null; origin: 'web' | 'device' | 'system' };

/**
 * Flowboxes of a zone and their pairing (spec §4 states init 1/3, pending 2/3, ready 3/3; issue
 * #4). Read like their site; pairing, validating, refusing, unpairing and detaching need
 * `flowboxes.pair` (docs/permissions.md). The device side of the handshake arrives through ingest.
 */
export class FlowboxesService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
  ) {}

  /** The flowboxes below a place being deleted, retired in its transaction (removal.ts). */
  retireUnder(tx: Db, node: HierarchyNode, by: Pick<Actor, 'id' | 'name'>, at: Date): Promise<string[]> {
    return retireFlowboxesUnder(tx, node, by, at);
  }

  /**
   * Credentials left live by flowboxes deleted without revoking them (hierarchy deletes before the
   * fix of issue #4's follow-up), revoked: device messaging sets the record right as it starts.
   */
  revokeOrphanCredentials(): Promise<number> {
    return revokeOrphanCredentials(this.ctx.db, this.ctx.now());
  }

  async list(actor: Actor, path: ZonePath): Promise<Flowbox[]> {
    requireZoneRead(actor, path);
    await this.zone(path);
    return (await listFlowboxes(this.ctx.db, path)).map(toApiFlowbox);
  }

  async info(actor: Actor, path: FlowboxPath): Promise<Flowbox> {
    requireZoneRead(actor, path);
    return toApiFlowbox(await this.find(path));
  }

  /** Step 1/3 "prepare pairing": the zone expects this serial; its factory secret lets it ask. */
  async prepare(actor: Actor, path: ZonePath, input: PrepareInput): Promise<Flowbox> {
    requireSiteManage(actor, path.customerId, path.siteId, 'flowboxes.pair');
    const zone = await this.zone(path);
    // spec §5: a zone needs a subscription, in place before pairing.
    if (!(await hasSubscription(this.ctx.db, zone.id)))
      throw new AppError('errors.zone_without_subscription');
    if (input.floor_id && !(await findFloor(this.ctx.db, path.buildingId, input.floor_id)))
      throw new AppError('errors.validation', {}, [{ path: 'floor_id', message: 'validation.select' }]);
    if (await serialTaken(this.ctx.db, input.serial)) throw new AppError('errors.flowbox_already_paired');
    const now = this.ctx.now();
    const id = await this.ctx.db.transaction(async (tx) => {
      const row = await insertFlowbox(tx, {
        serial: input.serial,
        zoneId: zone.id,
        floorId: input.floor_id ?? null,
        pairingState: 'init',
        factorySecretHash: hashSecret(input.factory_secret),
        createdAt: now,
        updatedAt: now,
      });
      // Two installers typing the same serial at once: the unique index lets one through.
      if (!row) throw new AppError('errors.flowbox_already_paired');
      // The factory secret is known only now: its broker account is made before the row commits.
      await this.link.grant(tx, { role: 'bootstrap', serial: input.serial }, input.factory_secret);
      const located = { flowbox: row, scope: scopeOf(path) };
      await this.record(tx, located, 'pairing_prepared', { by: actor, origin: 'web' });
      await notifyLive(tx, { type: 'flowbox', flowbox: toApiFlowbox(located) });
      return row.id;
    });
    return this.info(actor, { ...path, flowboxId: id });
  }

  /**
   * Step 3/3 "finalise pairing": the operator accepts the device that announced itself. Its model
   * and water must be the zone's (spec §8 mismatch errors); then it gets its own credentials.
   */
  async validate(actor: Actor, path: FlowboxPath): Promise<Flowbox> {
    requireSiteManage(actor, path.customerId, path.siteId, 'flowboxes.pair');
    const located = await this.find(path);
    if (located.flowbox.pairingState !== 'pending') throw new AppError('errors.pairing_step');
    const zone = await this.zone(path);
    if (located.flowbox.model !== zone.flowboxModel) throw new AppError('errors.flowbox_model_mismatch');
    if (located.flowbox.waterTemperature !== zone.waterTemperature)
      throw new AppError('errors.water_temperature_mismatch');
    const now = this.ctx.now();
    const issued = await this.ctx.db.transaction(async (tx) => {
      // Still in step 2/3 as it is written (a second validation, a detach, may have come between).
      const row = await updateFlowboxAtStep(
        tx,
        located.flowbox.id,
        ['pending'],
        { pairingState: 'ready', pairedAt: now },
        now,
      );
      if (!row) throw new AppError('errors.pairing_step');
      const updated = { flowbox: row, scope: located.scope };
      // The request the device repeats now: a repeat handled since the read may have brought a new one.
      const requestId = row.pairingRequestId;
      const secret = requestId ? await this.issueCredentials(tx, updated, now) : null;
      await this.record(tx, updated, 'pairing_validated', { by: actor, origin: 'web' });
      await notifyLive(tx, { type: 'flowbox', flowbox: toApiFlowbox(updated) });
      return requestId && secret ? { requestId, secret } : null;
    });
    if (issued)
      this.answerPairing(located.flowbox.serial, issued.requestId, { secret: issued.secret, issuedAt: now });
    return this.info(actor, path);
  }

  /** "Refuse pairing": the device that announced itself is not the one expected; nothing stays. */
  async refuse(actor: Actor, path: FlowboxPath): Promise<void> {
    requireSiteManage(actor, path.customerId, path.siteId, 'flowboxes.pair');
    const located = await this.find(path);
    if (located.flowbox.pairingState === 'ready') throw new AppError('errors.pairing_step');
    // The device in pairing mode is told, not cut off: its factory secret goes with the row anyway
    // (a managed broker account goes after the answer).
    await this.end(located, 'pairing_refused', { by: actor, origin: 'web' }, false);
    if (located.flowbox.pairingRequestId)
      this.answerPairing(located.flowbox.serial, located.flowbox.pairingRequestId, 'refused_by_operator');
    this.link.revokeAccounts(located.flowbox.serial);
  }

  /** "Unpair": a paired flowbox leaves its zone; its credentials stop working at once. */
  async unpair(actor: Actor, path: FlowboxPath): Promise<void> {
    // Taking a device out is a manager's decision, not an installer's (docs/permissions.md).
    requireManager(actor);
    requireSiteManage(actor, path.customerId, path.siteId, 'flowboxes.pair');
    const located = await this.find(path);
    if (located.flowbox.pairingState !== 'ready') throw new AppError('errors.pairing_step');
    await this.end(located, 'unpaired', { by: actor, origin: 'web' });
  }

  /**
   * "Detach" (spec §4, with confirmation): removes the flowbox whatever its pairing step, for a
   * device that is gone or broken and will never answer. The serial is what is typed.
   */
  async detach(actor: Actor, path: FlowboxPath, confirmName: string): Promise<void> {
    requireManager(actor);
    requireSiteManage(actor, path.customerId, path.siteId, 'flowboxes.pair');
    const located = await this.find(path);
    if (!typedNameMatches(confirmName, located.flowbox.serial)) throw namesMismatch();
    await this.end(located, 'detached', { by: actor, origin: 'web' });
  }

  /**
   * Step 2/3, the device side: in pairing mode the device, signed in with its factory secret,
   * announces what it is. A device validated but never signed in that asks again missed the
   * answer: it proved its factory secret, so it gets fresh credentials.
   */
  async announce(serial: string, request: PairingRequest, again = true): Promise<void> {
    const located = await findFlowboxBySerial(this.ctx.db, serial);
    if (!located) return this.answerPairing(serial, request.request_id, 'not_prepared');
    const now = this.ctx.now();
    const { flowbox } = located;
    if (flowbox.pairingState === 'ready') {
      // docs/protocol.md: once the device has signed in with its own credentials, its factory
      // secret no longer replaces them (a copied label must not take over a working device).
      if (flowbox.connectionChangedAt !== null)
        return this.answerPairing(serial, request.request_id, 'already_paired');
      // A repeat of the very request that was just answered with a secret crossed that answer in
      // flight (the device repeats every PAIRING_REQUEST_RETRY_S until answered): a fresh secret
      // would replace the one on its way, and the device would sign in with a dead one. It is
      // left unanswered; a device that really lost the answer repeats again after the period.
      if (request.request_id === flowbox.pairingRequestId) {
        const issuedAt = await liveCredentialIssuedAt(this.ctx.db, serial);
        if (issuedAt && now.getTime() - issuedAt.getTime() < PAIRING_REQUEST_RETRY_S * 1000) return;
      }
      const secret = await this.ctx.db.transaction((tx) => this.issueCredentials(tx, located, now));
      return this.answerPairing(serial, request.request_id, { secret, issuedAt: now });
    }
    // Written only while still in step 1 or 2: validated meanwhile, the flowbox must not go back to
    // step 2 (the device holds its credentials, and readings count only from a flowbox in step 3);
    // detached meanwhile, nothing is written. Either way the announcement is decided again on what
    // is there now, once (a device repeats every PAIRING_REQUEST_RETRY_S anyway).
    const written = await this.ctx.db.transaction(async (tx) => {
      const patch: Partial<NewFlowboxRow> = {
        pairingState: 'pending',
        pairingRequestId: request.request_id,
        model: request.model,
        waterTemperature: request.water_temperature,
        espVersion: request.versions.esp,
        boardVersion: request.versions.board,
        firmwareVersion: request.versions.firmware,
        lastSeenAt: now,
      };
      // Step 1 to 2 logs the announcement once; a repeat in step 2 only refreshes what the device said.
      const announced = await updateFlowboxAtStep(tx, flowbox.id, ['init'], patch, now);
      const row = announced ?? (await updateFlowboxAtStep(tx, flowbox.id, ['pending'], patch, now));
      if (!row) return false;
      const updated = { flowbox: row, scope: located.scope };
      if (announced) await this.record(tx, updated, 'pairing_announced', { by: null, origin: 'device' });
      await notifyLive(tx, { type: 'flowbox', flowbox: toApiFlowbox(updated) });
      return true;
    });
    if (!written) return again ? this.announce(serial, request, false) : undefined;
    this.answerPairing(serial, request.request_id, 'pending');
  }

  /** Deletes the flowbox, revokes its credentials, and (unless told not to) closes its broker connection. */
  private async end(
    located: LocatedFlowbox,
    action: EventAction,
    who: Who,
    disconnect = true,
  ): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      await revokeCredentials(tx, located.flowbox.serial, now);
      await deleteFlowbox(tx, located.flowbox.id);
      await this.record(tx, located, action, who);
      await notifyLive(tx, {
        type: 'flowbox_removed',
        flowbox_id: located.flowbox.id,
        customer_id: located.scope.customerId,
        site_id: located.scope.siteId,
        zone_id: located.scope.zoneId,
      });
    });
    if (disconnect) this.link.disconnect(located.flowbox.serial);
  }

  /**
   * A new secret replaces any previous one; only its hash is stored, the device gets it once. A
   * broker whose accounts the server manages has it before the hash commits (DeviceLink.grant).
   */
  private async issueCredentials(db: Db, located: LocatedFlowbox, now: Date): Promise<string> {
    const secret = newDeviceSecret();
    await revokeCredentials(db, located.flowbox.serial, now);
    await insertCredential(db, {
      serial: located.flowbox.serial,
      flowboxId: located.flowbox.id,
      secretHash: hashSecret(secret),
      issuedAt: now,
    });
    await this.link.grant(db, { role: 'device', serial: located.flowbox.serial }, secret);
    return secret;
  }

  private answerPairing(
    serial: string,
    requestId: string,
    answer: 'pending' | PairingRefusalReason | { secret: string; issuedAt: Date },
  ): void {
    const base = { v: PROTOCOL_VERSION, request_id: requestId };
    const message =
      answer === 'pending'
        ? { ...base, result: 'pending' as const }
        : typeof answer === 'string'
          ? { ...base, result: 'refused' as const, reason: answer }
          : {
              ...base,
              result: 'accepted' as const,
              username: serial,
              password: answer.secret,
              issued_at: answer.issuedAt.toISOString(),
            };
    this.link.send(serial, 'pairing/response', message);
  }

  private record(db: Db, located: LocatedFlowbox, action: EventAction, who: Who): Promise<void> {
    return recordEvent(db, this.ctx.now(), {
      action,
      object: 'flowbox',
      objectId: located.flowbox.id,
      objectLabel: located.flowbox.serial,
      scope: located.scope,
      by: who.by,
      origin: who.origin,
    });
  }

  private async zone(path: ZonePath): Promise<ZoneRow> {
    const zone = await findZoneRow(this.ctx.db, path);
    if (!zone) throw notFound();
    return zone;
  }

  private async find(path: FlowboxPath): Promise<LocatedFlowbox> {
    const located = await findFlowbox(this.ctx.db, path);
    if (!located) throw notFound();
    return located;
  }
}

function scopeOf(path: ZonePath) {
  return {
    customerId: path.customerId,
    siteId: path.siteId,
    buildingId: path.buildingId,
    zoneId: path.zoneId,
  };
}
