import { randomUUID } from 'node:crypto';
import {
  ALL_FIRMWARE_UPDATE_STATES,
  compareFirmwareVersions,
  ROLLOUT_TIMELINE_MAX_POINTS,
  waveSizes,
  type FirmwareUpdateState,
  type FlowboxModel,
  type Rollout,
  type RolloutAction,
  type RolloutTimeline,
  type RolloutCreateSchema,
  type RolloutDevicesQuerySchema,
  type RolloutsQuerySchema,
} from '@flowbox/shared';
import type { z } from 'zod';
import {
  canReadPlace,
  isProvider,
  placeScopeOf,
  requirePermission,
  requirePlaceManage,
  unknownTo,
  type Actor,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  cursorInteger,
  cursorText,
  cursorTime,
  cursorUuid,
  decodeCursor,
  encodeCursor,
} from '../db/cursor.ts';
import type { HierarchyNode, LocatedFlowbox } from '../db/scope.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { notifyRollout, recordRolloutEvent, rolloutOutcome } from './rollouts.halt.ts';
import {
  countByWave,
  flowboxesUpdating,
  flowboxesWaitingElsewhere,
  insertRollout,
  listRolloutDevices,
  listRollouts,
  lockRollout,
  patchRollout,
  resolvePlace,
  rolloutSteps,
  selectFlowboxes,
  waveTimes,
  findRollout,
  type RolloutRow,
} from './rollouts.repo.ts';
import type { RolloutRunner } from './rollouts.runner.ts';
import { rolloutTimeline } from './rollouts.timeline.ts';
import { findImage, imageReleasedTo, type ImageRow, type NewUpdateRow } from './updates.repo.ts';
import { addRolloutDevices, cancelScheduled } from './updates.moves.ts';
import { releasedImage, requireUsableImage } from './updates.service.ts';
import { toApiUpdateSummary } from './updates.view.ts';

type CreateInput = z.output<typeof RolloutCreateSchema>;
type Target = CreateInput['target'];
type RolloutsQuery = z.output<typeof RolloutsQuerySchema>;
type DevicesQuery = z.output<typeof RolloutDevicesQuerySchema>;

/** Why a device is left out when the rollout is created (docs/firmware.md "Rollouts"). */
type SkippedAtSelection = 'already_on_version' | 'already_updating' | 'in_other_rollout';

const ROLLOUTS_PAGE = 50;
const DEVICES_PAGE = 100;

/**
 * Staged rollouts (docs/firmware.md "Rollouts"): the selection and its waves when one is created,
 * reading them, and the user's controls. The rollout job (rollouts.runner.ts) starts the devices.
 */
export class RolloutsService {
  constructor(
    private readonly ctx: Context,
    private readonly runner: RolloutRunner,
  ) {}

  async create(actor: Actor, input: CreateInput): Promise<Rollout> {
    const { target } = input;
    requirePlaceManage(actor, target.customer_id ?? null, target.site_id ?? null, 'firmware.update');
    const label = await resolvePlace(this.ctx.db, {
      customerId: target.customer_id,
      siteId: target.site_id,
      buildingId: target.building_id,
      zoneId: target.zone_id,
    });
    if (!label) throw notFound();
    const image = await releasedImage(this.ctx.db, actor, input.image_id, target.customer_id ?? null);
    if (image.status === 'withdrawn') throw new AppError('errors.firmware_withdrawn');
    const models = input.models ?? image.models;
    if (models.some((m) => !image.models.includes(m))) throw new AppError('errors.firmware_incompatible');
    const wavesPct = input.waves_pct.at(-1) === 100 ? input.waves_pct : [...input.waves_pct, 100];
    const now = this.ctx.now();
    const id = await this.ctx.db.transaction(async (tx) => {
      await requireUsableImage(tx, image.id);
      const { eligible, skipped } = await this.select(tx, target, models, input.from_versions, image);
      if (eligible.length === 0) throw new AppError('errors.rollout_no_devices');
      const rollout = await insertRollout(tx, {
        imageId: image.id,
        customerId: target.customer_id ?? null,
        siteId: target.site_id ?? null,
        buildingId: target.building_id ?? null,
        zoneId: target.zone_id ?? null,
        label: label.length > 0 ? label.join(' › ') : 'Fleet',
        fromVersions: input.from_versions ?? null,
        models,
        wavesPct,
        startJitterS: input.start_jitter_s,
        maxConcurrent: input.max_concurrent,
        failureThresholdPct: input.failure_threshold_pct,
        duringOpeningHours: input.during_opening_hours,
        state: 'running',
        total: eligible.length + skipped.length,
        createdBy: actor.id,
        createdByName: actor.name,
      });
      const row = (located: LocatedFlowbox, values: Partial<NewUpdateRow>): NewUpdateRow => ({
        id: randomUUID(),
        flowboxId: located.flowbox.id,
        imageId: image.id,
        rolloutId: rollout.id,
        fromVersion: located.flowbox.firmwareVersion,
        targetVersion: image.version,
        state: 'scheduled',
        origin: 'system',
        requestedBy: actor.id,
        requestedByName: actor.name,
        stateChangedAt: now,
        ...values,
      });
      // Waves take the devices in serial order: the first wave (at least one device) is the canary.
      const sizes = waveSizes(eligible.length, wavesPct);
      const waveOf = sizes.flatMap((size, i) => Array<number>(size).fill(i + 1));
      await addRolloutDevices(
        tx,
        [
          ...eligible.map((located, i) => ({
            located,
            row: row(located, { wave: waveOf[i] ?? sizes.length }),
          })),
          ...skipped.map(({ located, reason }) => ({
            located,
            row: row(located, { state: 'skipped', reason, finishedAt: now }),
          })),
        ],
        now,
      );
      await this.runner.openWave(tx, rollout, 1, now);
      // What it sets out to do, counted (docs/firmware.md "Activity log"): no line per device.
      await recordRolloutEvent(tx, rollout, 'rollout_created', actor, now, [
        image.version,
        `flowboxes=${eligible.length}`,
        `waves=${sizes.length}`,
        `left_out=${skipped.length}`,
      ]);
      await notifyRollout(tx, rollout);
      return rollout.id;
    });
    return this.toApi((await findRollout(this.ctx.db, id))!);
  }

  async list(actor: Actor, query: RolloutsQuery): Promise<{ items: Rollout[]; next_cursor: string | null }> {
    requirePermission(actor, 'firmware.update');
    const after = query.cursor ? decodeCursor(query.cursor, rolloutCursor) : undefined;
    // Only managers hold firmware.update: the provider's see every rollout, the others their customer's (or sites').
    const { customerId, siteIds } = placeScopeOf(actor);
    const rows = await listRollouts(
      this.ctx.db,
      { state: query.state, customerId, siteIds, after },
      ROLLOUTS_PAGE + 1,
    );
    const page = rows.slice(0, ROLLOUTS_PAGE);
    const last = page.at(-1);
    return {
      items: await Promise.all(page.map((r) => this.toApi(r))),
      next_cursor:
        rows.length > ROLLOUTS_PAGE && last
          ? encodeCursor({ at: last.createdAt.toISOString(), id: last.id })
          : null,
    };
  }

  async get(actor: Actor, id: string): Promise<Rollout> {
    return this.toApi(await this.readable(actor, id));
  }

  /** Its devices per state group over its whole life, from their steps (rollouts.timeline.ts). */
  async timeline(actor: Actor, id: string): Promise<RolloutTimeline> {
    const rollout = await this.readable(actor, id);
    const steps = await rolloutSteps(this.ctx.db, rollout.id);
    // The line runs to the rollout's end (its last state lasts until then), or to now.
    const over = rollout.state === 'completed' || rollout.state === 'cancelled';
    return rolloutTimeline(steps, ROLLOUT_TIMELINE_MAX_POINTS, over ? rollout.finishedAt : this.ctx.now());
  }

  async devices(actor: Actor, id: string, query: DevicesQuery) {
    const rollout = await this.readable(actor, id);
    const after = query.cursor ? decodeCursor(query.cursor, deviceCursor) : undefined;
    const rows = await listRolloutDevices(
      this.ctx.db,
      rollout.id,
      {
        state: query.state,
        wave: query.wave,
        after,
      },
      DEVICES_PAGE + 1,
    );
    const page = rows.slice(0, DEVICES_PAGE);
    const last = page.at(-1);
    return {
      items: page.map((p) => ({
        ...toApiUpdateSummary(p),
        last_message_at: p.update.lastMessageAt?.toISOString() ?? null,
      })),
      next_cursor:
        rows.length > DEVICES_PAGE && last
          ? encodeCursor({ wave: last.update.wave ?? 0, serial: last.serial })
          : null,
    };
  }

  /**
   * Pause (no new device starts; running ones finish), resume (a halted rollout only by a provider
   * manager, once the cause is understood), cancel (waiting devices become `cancelled`).
   */
  async act(actor: Actor, id: string, action: RolloutAction): Promise<Rollout> {
    await this.readable(actor, id);
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      const rollout = (await lockRollout(tx, id))!;
      const next = nextState(rollout, action, actor);
      if (!next) throw new AppError('errors.rollout_state');
      const changed = await patchRollout(tx, id, {
        state: next,
        updatedAt: now,
        ...(action === 'resume' ? { haltReason: null } : {}),
        ...(next === 'cancelled' ? { finishedAt: now } : {}),
      });
      const cancelled = action === 'cancel' ? await cancelScheduled(tx, id, now) : 0;
      await recordRolloutEvent(
        tx,
        changed,
        ACTION_EVENT[action],
        actor,
        now,
        action === 'cancel'
          ? [`cancelled=${cancelled}`, ...(await rolloutOutcome(tx, id, ['succeeded', 'failed']))]
          : [],
      );
      await notifyRollout(tx, changed);
    });
    return this.toApi((await findRollout(this.ctx.db, id))!);
  }

  /** The rollout, if the actor may read it: the same 403 whether it exists or not. */
  private async readable(actor: Actor, id: string): Promise<RolloutRow> {
    requirePermission(actor, 'firmware.update');
    const rollout = await findRollout(this.ctx.db, id);
    // Provider managers read every rollout: to them alone a missing one is "not found".
    if (!rollout) throw unknownTo(actor);
    if (!canReadPlace(actor, rollout.customerId, rollout.siteId)) throw forbidden();
    return rollout;
  }

  /**
   * The devices a rollout over this target selects: paired, of the models, on one of the versions
   * when given, of a customer the image is released to; those already on the version or already
   * updating are skipped at once.
   */
  private async select(
    tx: Db,
    target: Target,
    models: FlowboxModel[],
    fromVersions: string[] | undefined,
    image: ImageRow,
  ) {
    const place: HierarchyNode | null = target.zone_id
      ? { zoneId: target.zone_id }
      : target.building_id
        ? { buildingId: target.building_id }
        : target.site_id
          ? { siteId: target.site_id }
          : target.customer_id
            ? { customerId: target.customer_id }
            : null;
    const released = new Map<string, boolean>();
    const selected: LocatedFlowbox[] = [];
    for (const located of await selectFlowboxes(tx, place, models)) {
      const version = located.flowbox.firmwareVersion;
      if (fromVersions && (!version || !fromVersions.some((v) => compareFirmwareVersions(v, version) === 0)))
        continue;
      const customer = located.scope.customerId;
      if (!released.has(customer)) released.set(customer, await imageReleasedTo(tx, image, customer));
      if (released.get(customer)) selected.push(located);
    }
    const ids = selected.map((l) => l.flowbox.id);
    const updating = await flowboxesUpdating(tx, ids);
    // Waiting in another rollout under way: that one updates it (a halted one does not hold it).
    const waiting = await flowboxesWaitingElsewhere(tx, ids, null);
    const eligible: LocatedFlowbox[] = [];
    const skipped: { located: LocatedFlowbox; reason: SkippedAtSelection }[] = [];
    for (const located of selected) {
      if (located.flowbox.firmwareVersion === image.version)
        skipped.push({ located, reason: 'already_on_version' });
      else if (updating.has(located.flowbox.id)) skipped.push({ located, reason: 'already_updating' });
      else if (waiting.has(located.flowbox.id)) skipped.push({ located, reason: 'in_other_rollout' });
      else eligible.push(located);
    }
    return { eligible, skipped };
  }

  private async toApi(rollout: RolloutRow): Promise<Rollout> {
    const [counts, times, image] = await Promise.all([
      countByWave(this.ctx.db, rollout.id),
      waveTimes(this.ctx.db, rollout.id),
      findImage(this.ctx.db, rollout.imageId),
    ]);
    const total = emptyCounts();
    for (const c of counts) total[c.state] += c.n;
    const waves = times
      .filter((t) => t.wave > 0)
      .sort((a, b) => a.wave - b.wave)
      .map((t) => {
        const byState = emptyCounts();
        for (const c of counts.filter((c) => c.wave === t.wave)) byState[c.state] += c.n;
        const size = Object.values(byState).reduce((a, b) => a + b, 0);
        return {
          wave: t.wave,
          size,
          counts: byState,
          started_at: t.startedAt?.toISOString() ?? null,
          finished_at: t.open === 0 ? (t.finishedAt?.toISOString() ?? null) : null,
        };
      });
    return {
      id: rollout.id,
      image_id: rollout.imageId,
      version: image?.version ?? '',
      target: {
        customer_id: rollout.customerId,
        site_id: rollout.siteId,
        building_id: rollout.buildingId,
        zone_id: rollout.zoneId,
        label: rollout.label,
      },
      state: rollout.state,
      halt_reason: rollout.haltReason,
      waves_pct: rollout.wavesPct,
      start_jitter_s: rollout.startJitterS,
      max_concurrent: rollout.maxConcurrent,
      failure_threshold_pct: rollout.failureThresholdPct,
      during_opening_hours: rollout.duringOpeningHours,
      current_wave: rollout.currentWave,
      total: rollout.total,
      counts: total,
      waves,
      created_at: rollout.createdAt.toISOString(),
      created_by_name: rollout.createdByName,
      finished_at: rollout.finishedAt?.toISOString() ?? null,
    };
  }
}

const ACTION_EVENT = {
  pause: 'rollout_paused',
  resume: 'rollout_resumed',
  cancel: 'rollout_cancelled',
} as const;

/** The state an action leads to from the rollout's, or null when it does not apply. */
function nextState(rollout: RolloutRow, action: RolloutAction, actor: Actor): RolloutRow['state'] | null {
  switch (action) {
    case 'pause':
      return rollout.state === 'running' ? 'paused' : null;
    case 'resume':
      if (rollout.state === 'paused') return 'running';
      return rollout.state === 'halted' && isProvider(actor) ? 'running' : null;
    case 'cancel':
      return ['running', 'paused', 'halted'].includes(rollout.state) ? 'cancelled' : null;
  }
}

function emptyCounts(): Record<FirmwareUpdateState, number> {
  return Object.fromEntries(ALL_FIRMWARE_UPDATE_STATES.map((s) => [s, 0])) as Record<
    FirmwareUpdateState,
    number
  >;
}

/** Keyset cursors (db/cursor.ts): where the last page ended (stable while rows arrive). */
const rolloutCursor = { at: cursorTime, id: cursorUuid };

/** Skipped devices have no wave (0 in the order); `wave` is a smallint. */
const deviceCursor = { wave: cursorInteger(0, 32_767), serial: cursorText(64) };
