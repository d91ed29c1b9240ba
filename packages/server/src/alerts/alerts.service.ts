import {
  CRITICAL_ALERT_CATEGORIES,
  alertSeverity,
  UNOPENED_ESCALATION_MINUTES,
  type Alert,
  type AlertCategory,
  type AlertCategorySetting,
  type AlertCategorySettingUpdate,
  type AlertCount,
  type AlertDetails,
  type AlertsPage,
  type AlertCountQuery,
  type AlertsQuery,
  type AlertTransition,
  type EventAction,
  type EventOrigin,
} from '@flowbox/shared';
import {
  requireFilterRead,
  requirePermission,
  requireProviderManage,
  requireZoneRead,
  type Actor,
  type FilteredPlace,
  placeScopeOf,
  unknownTo,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange, recordEvent } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import { firstPushesOfAlerts } from '../push/index.ts';
import { withAnswers } from './alert-answers.service.ts';
import { recordAlertOpens } from './alert-opens.repo.ts';
import { allCategorySettings, categorySetting, saveCategorySetting } from './alert-settings.ts';
import {
  countAlerts,
  findActiveByCause,
  findAlertRow,
  customerExists,
  customerOfSite,
  findAlertZone,
  placeOfBuilding,
  listAlerts,
  queueAlertPush,
  toApiAlert,
  updateAlert,
  upsertAlert,
  type AlertRow,
  type AlertScope,
  type AlertZone,
} from './alerts.repo.ts';

export type RaiseAlertInput = {
  category: AlertCategory;
  zoneId: string;
  flowboxId?: string;
  flowboxSerial?: string;
  /** One alert not resolved per (zone, cause): a repeat counts on it (docs/alerts.md "Causes"). */
  cause: string;
  details: AlertDetails;
  /** When the cause was seen; the context clock when absent. */
  at?: Date;
  /**
   * The zone's people asked for this alert themselves (away mode, docs/residents.md): it is raised
   * on a basic zone too, as premium-only hides premium views of consumption, not what one asked for.
   */
  askedFor?: boolean;
};

export type RaiseOutcome =
  | { raised: 'opened' | 'repeated'; alert: Alert }
  | { raised: false; reason: 'unknown_zone' | 'disabled' | 'premium_only' };

export type ClearAlertInput = { zoneId: string; cause: string; at?: Date };

export type AlertsOptions = {
  /** Critical alerts are emailed again this long after the previous email (docs/alerts.md). */
  escalationIntervalMs: number;
};

/**
 * The alert lifecycle (spec §4): opened by a cause (`raise`, in the transaction that detects it),
 * silenced, unsilenced and resolved by a user, or resolved automatically when the cause clears
 * (`clear`). Each transition writes its activity-log line and live message in the same transaction.
 */
export class AlertsService {
  constructor(
    private readonly ctx: Context,
    private readonly options: AlertsOptions,
  ) {}

  raise(tx: Db, input: RaiseAlertInput): Promise<RaiseOutcome> {
    return raiseAlert(tx, { ...input, at: input.at ?? this.ctx.now() });
  }

  /** The cause cleared: its alert (open or silenced) is resolved, recorded as automatic. */
  clear(tx: Db, input: ClearAlertInput, origin: Exclude<EventOrigin, 'web'> = 'system'): Promise<boolean> {
    return clearAlert(tx, { ...input, at: input.at ?? this.ctx.now() }, origin);
  }

  async list(actor: Actor, query: AlertsQuery): Promise<AlertsPage> {
    requireFilterRead(actor, await this.placesFiltered(query));
    const page = await listAlerts(this.ctx.db, scopeOf(actor), query);
    return { ...page, items: await this.asRead(actor, page.items) };
  }

  async count(actor: Actor, query: AlertCountQuery = {}): Promise<AlertCount> {
    requireFilterRead(actor, await this.placesFiltered(query));
    return countAlerts(this.ctx.db, scopeOf(actor), query);
  }

  async info(actor: Actor, id: string): Promise<Alert> {
    const row = await findAlertRow(this.ctx.db, id);
    if (!row) throw unknownTo(actor);
    requireZoneRead(actor, row);
    const zone = await findAlertZone(this.ctx.db, row.zoneId);
    if (!zone) throw notFound();
    return (await this.asRead(actor, [toApiAlert(row, zone)]))[0]!;
  }

  /** Alerts as a reader reads them: with the answers they may see and when the first push went. */
  private async asRead(actor: Actor, alerts: Alert[]): Promise<Alert[]> {
    const answered = await withAnswers(this.ctx.db, actor, alerts);
    const pushes = await firstPushesOfAlerts(
      this.ctx.db,
      answered.map((a) => a.id),
    );
    return answered.map((alert) => {
      const push = pushes.get(alert.id);
      if (!push) return { ...alert, first_push: null };
      const afterS = push.readingAt ? (push.sentAt.getTime() - push.readingAt.getTime()) / 1000 : null;
      return { ...alert, first_push: { sent_at: push.sentAt.toISOString(), after_s: afterS } };
    });
  }

  /** spec §4: silenced, unsilenced and resolved by the user; anyone who sees it and may manage alerts. */
  async transition(actor: Actor, id: string, transition: AlertTransition): Promise<Alert> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const current = await findAlertRow(tx, id, true);
      if (!current) throw unknownTo(actor);
      requireZoneRead(actor, current);
      requirePermission(actor, 'alerts.manage');
      const zone = await findAlertZone(tx, current.zoneId);
      if (!zone) throw notFound();
      const { patch, action } = this.transitionPatch(current, transition, actor, now);
      const row = await updateAlert(tx, id, patch);
      // Acting on it is opening it (docs/alerts.md "Escalation").
      await recordAlertOpens(tx, actor.id, [id], now);
      await logAlert(tx, row, zone, action, now, actor, [row.category]);
      const alert = toApiAlert(row, zone);
      await publishAlert(tx, alert);
      return alert;
    });
  }

  settings(): Promise<AlertCategorySetting[]> {
    return allCategorySettings(this.ctx.db);
  }

  /** spec §3 alert settings are the service's: provider managers change them. */
  async updateSetting(
    actor: Actor,
    category: AlertCategory,
    input: AlertCategorySettingUpdate,
  ): Promise<AlertCategorySetting> {
    requireProviderManage(actor, 'alerts.manage');
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const current = await categorySetting(tx, category);
      const next: AlertCategorySetting = {
        ...current,
        ...(input.subject ? { subject: input.subject } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.premium_only !== undefined ? { premium_only: input.premium_only } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
      };
      await saveCategorySetting(tx, next, now);
      // The service's setting, in no customer's log (like pricing plans); the category is the label.
      await recordChange(tx, now, actor, {
        action: 'updated',
        object: 'alert_category',
        objectId: null,
        objectLabel: category,
        scope: { customerId: null },
        changedFields: changedFieldsOf(input),
      });
      return next;
    });
  }

  private transitionPatch(
    current: AlertRow,
    transition: AlertTransition,
    actor: Actor,
    now: Date,
  ): { patch: Partial<AlertRow>; action: EventAction } {
    const invalid = () => new AppError('errors.alert_state', { state: current.state });
    switch (transition) {
      case 'silence':
        // Silencing says "we know": no email and no escalation until unsilenced (docs/alerts.md).
        if (current.state !== 'open') throw invalid();
        return {
          patch: { state: 'silenced', silencedAt: now, notifyDueAt: null, escalateAt: null },
          action: 'alert_silenced',
        };
      case 'unsilence': {
        if (current.state !== 'silenced') throw invalid();
        const critical = CRITICAL_ALERT_CATEGORIES.includes(current.category);
        const due = !current.emailedAt
          ? now
          : critical
            ? new Date(now.getTime() + this.options.escalationIntervalMs)
            : null;
        // Its escalation goes on where it stopped, one step from now (docs/alerts.md "Escalation").
        const escalateAt =
          alertSeverity(current.category) === 'critical' && current.escalationStage < 2
            ? new Date(now.getTime() + UNOPENED_ESCALATION_MINUTES * 60_000)
            : null;
        return {
          patch: { state: 'open', silencedAt: null, notifyDueAt: due, escalateAt },
          action: 'alert_unsilenced',
        };
      }
      case 'resolve':
        if (current.state === 'resolved') throw invalid();
        return {
          patch: {
            state: 'resolved',
            resolvedAt: now,
            resolvedBy: actor.id,
            resolvedByName: actor.name,
            resolvedAutomatically: false,
            notifyDueAt: null,
            escalateAt: null,
          },
          action: 'alert_resolved',
        };
    }
  }

  /**
   * The customer, site, building and zone a filter names, as the places the caller must read (a
   * building is read as its site is); undefined for an id that names nothing.
   */
  private async placesFiltered(query: AlertCountQuery): Promise<FilteredPlace[]> {
    const db = this.ctx.db;
    const places: FilteredPlace[] = [];
    if (query.customer_id)
      places.push(
        (await customerExists(db, query.customer_id)) ? { customerId: query.customer_id } : undefined,
      );
    if (query.site_id) {
      const customerId = await customerOfSite(db, query.site_id);
      places.push(customerId ? { customerId, siteId: query.site_id } : undefined);
    }
    if (query.building_id) {
      const building = await placeOfBuilding(db, query.building_id);
      places.push(building ? { customerId: building.customerId, siteId: building.siteId } : undefined);
    }
    if (query.zone_id) {
      const zone = await findAlertZone(db, query.zone_id);
      places.push(
        zone ? { customerId: zone.customerId, siteId: zone.siteId, zoneId: query.zone_id } : undefined,
      );
    }
    return places;
  }
}

/**
 * Opens an alert in the caller's transaction, or counts a repeat on the one of the same cause not
 * yet resolved. Premium-only categories are never raised for basic zones (spec §6) unless the
 * zone's people asked for the alert (`askedFor`), disabled ones never at all.
 */
export async function raiseAlert(tx: Db, input: RaiseAlertInput & { at: Date }): Promise<RaiseOutcome> {
  const zone = await findAlertZone(tx, input.zoneId);
  if (!zone) return { raised: false, reason: 'unknown_zone' };
  const setting = await categorySetting(tx, input.category);
  if (!setting.enabled) return { raised: false, reason: 'disabled' };
  if (setting.premium_only && !zone.premium && !input.askedFor)
    return { raised: false, reason: 'premium_only' };
  const { row, opened } = await upsertAlert(tx, {
    category: input.category,
    cause: input.cause,
    details: input.details,
    flowboxId: input.flowboxId ?? null,
    flowboxSerial: input.flowboxSerial ?? null,
    zone,
    at: input.at,
  });
  if (opened) await logAlert(tx, row, zone, 'alert_opened', input.at, null, [row.category]);
  // docs/push.md: the instances hear it once committed, and push it within the second to those
  // whose channels for its severity hold push (docs/alerts.md "How each person is told").
  if (opened) await queueAlertPush(tx, row);
  const alert = toApiAlert(row, zone);
  await publishAlert(tx, alert);
  return { raised: opened ? 'opened' : 'repeated', alert };
}

/** Resolves the alert of a cause that cleared (origin system or device); false when none was active. */
export async function clearAlert(
  tx: Db,
  input: ClearAlertInput & { at: Date },
  origin: Exclude<EventOrigin, 'web'> = 'system',
): Promise<boolean> {
  const current = await findActiveByCause(tx, input.zoneId, input.cause);
  if (!current) return false;
  const zone = await findAlertZone(tx, current.zoneId);
  if (!zone) return false;
  const row = await updateAlert(tx, current.id, {
    state: 'resolved',
    resolvedAt: input.at,
    resolvedAutomatically: true,
    notifyDueAt: null,
    escalateAt: null,
  });
  await logAlert(tx, row, zone, 'alert_resolved', input.at, null, [row.category, 'automatic'], origin);
  await publishAlert(tx, toApiAlert(row, zone));
  return true;
}

function logAlert(
  tx: Db,
  row: AlertRow,
  zone: AlertZone,
  action: EventAction,
  at: Date,
  by: Actor | null,
  changedFields: string[],
  origin: EventOrigin = by ? 'web' : 'system',
): Promise<void> {
  return recordEvent(tx, at, {
    action,
    object: 'alert',
    objectId: row.id,
    // The zone's name: user text, the same in every language; the category (a key the web
    // translates) is the first changed field.
    objectLabel: zone.zoneName,
    scope: zone,
    by: by ? { id: by.id, name: by.name } : null,
    origin,
    changedFields,
  });
}

function publishAlert(tx: Db, alert: Alert): Promise<void> {
  return notifyLive(tx, {
    type: 'alert',
    alert,
    customer_id: alert.customer_id,
    site_id: alert.site_id,
    zone_id: alert.zone_id,
  });
}

/**
 * The alerts a caller sees: everything (provider), its customer's, a site manager's or plumber's
 * sites, an end user's zones (docs/permissions.md).
 */
export function scopeOf(actor: Actor): AlertScope {
  return placeScopeOf(actor);
}
