import {
  REPORTS_KEPT,
  typedNameMatches,
  startOfLocalDay,
  addDays,
  type EventAction,
  type Language,
  type Report,
  type ReportFormat,
  type ReportFrequency,
  type ReportGenerate,
  type ReportRecipient,
  type ReportSchedule,
  type ReportScheduleInput,
} from '@flowbox/shared';
import {
  receivesReportsOf,
  REPORT_RECEIVER_ROLES,
  requireReportsManage,
  requireReportsRead,
  type Actor,
} from '../access/access.ts';
import { CATEGORY_NAMES, openedAlertCounts } from '../alerts/index.ts';
import type { ConsumptionService } from '../consumption/consumption.service.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { countEventsByAction, recordChange, recordEvent } from '../events/index.ts';
import type { EmailMessage } from '../mail/mailer.ts';
import { nextDueAt, periodEndingAt, type ReportPeriod } from './periods.ts';
import { reportCsv } from './report-csv.ts';
import { CLOSING_ACTIONS, type ReportData } from './report-data.ts';
import { reportPdf } from './report-pdf.ts';
import { reportReadyEmail } from './report-texts.ts';
import {
  advanceSchedule,
  claimDueSchedules,
  deleteSchedule,
  findReport,
  findSchedule,
  insertReport,
  insertSchedule,
  listReports,
  listSchedules,
  pruneReports,
  receiversOf,
  reportFile,
  scopeNames,
  updateSchedule,
  type ReceiverRow,
  type ReportListRow,
  type ReportScope,
  type ScheduleRow,
  type ScheduleValues,
  zoneHoursIn,
} from './reports.repo.ts';
import { periodLeakFigures } from './report-leaks.ts';

/** How the job takes due schedules (docs/reports.md "Once, whatever the instances"). */
export const REPORT_JOB = {
  everyMs: 60_000,
  /** A claimed schedule is another instance's to retry after this long (the claimer stopped). */
  leaseMs: 10 * 60_000,
  batchSize: 5,
} as const;

const encoder = new TextEncoder();

const nameOf = (user: Pick<ReceiverRow, 'firstname' | 'lastname'>) => `${user.firstname} ${user.lastname}`;

/**
 * Scheduled reports (issue 33, docs/reports.md): schedules of a customer or a site, reports made by
 * the `scheduled_reports` job or on demand, their files and the emails telling their recipients.
 */
export class ReportsService {
  constructor(
    private readonly ctx: Context,
    private readonly consumption: Pick<ConsumptionService, 'periodFigures' | 'timezoneOf'>,
  ) {}

  /** The scope's names once the actor may read its reports; a site of another customer is not found. */
  private async readable(actor: Actor, scope: ReportScope) {
    requireReportsRead(actor, scope.customerId, scope.siteId);
    const names = await scopeNames(this.ctx.db, scope);
    if (!names) throw notFound();
    return names;
  }

  private async manageable(actor: Actor, scope: ReportScope) {
    requireReportsManage(actor, scope.customerId, scope.siteId);
    const names = await scopeNames(this.ctx.db, scope);
    if (!names) throw notFound();
    return names;
  }

  /** The users a schedule of the scope may name, now (docs/reports.md "Who"). */
  private async receivers(scope: ReportScope, ids?: readonly string[]): Promise<ReceiverRow[]> {
    const rows = await receiversOf(this.ctx.db, scope.customerId, REPORT_RECEIVER_ROLES, ids);
    return rows.filter((user) => receivesReportsOf({ ...user, zoneIds: [] }, scope.customerId, scope.siteId));
  }

  async recipients(actor: Actor, scope: ReportScope): Promise<ReportRecipient[]> {
    await this.readable(actor, scope);
    return (await this.receivers(scope)).map((u) => ({ id: u.id, name: nameOf(u), email: u.email }));
  }

  async listSchedules(actor: Actor, scope: ReportScope): Promise<{ items: ReportSchedule[]; total: number }> {
    await this.readable(actor, scope);
    const rows = await listSchedules(this.ctx.db, scope);
    const receivers = await this.receivers(scope, [...new Set(rows.flatMap((r) => r.recipientIds))]);
    const items = rows.map((row) => toApiSchedule(row, receivers));
    return { items, total: items.length };
  }

  async info(actor: Actor, scope: ReportScope, id: string): Promise<ReportSchedule> {
    await this.readable(actor, scope);
    const row = await findSchedule(this.ctx.db, scope, id);
    if (!row) throw notFound();
    return toApiSchedule(row, await this.receivers(scope, row.recipientIds));
  }

  /** The stored values of an input: its recipients checked, its next report's time from now. */
  private async valuesOf(scope: ReportScope, input: ReportScheduleInput): Promise<ScheduleValues> {
    const receivers = await this.receivers(scope, input.recipient_ids);
    if (receivers.length !== input.recipient_ids.length)
      throw new AppError('errors.invalid_report_recipients');
    const timezone = await this.consumption.timezoneOf(scope);
    return {
      name: input.name,
      frequency: input.frequency,
      formats: sortedFormats(input.formats),
      language: input.language,
      recipientIds: input.recipient_ids,
      enabled: input.enabled,
      nextDueAt: nextDueAt(input.frequency, this.ctx.now(), timezone),
    };
  }

  async create(actor: Actor, scope: ReportScope, input: ReportScheduleInput): Promise<ReportSchedule> {
    await this.manageable(actor, scope);
    const values = await this.valuesOf(scope, input);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertSchedule(tx, scope, values);
      await this.logSchedule(tx, actor, 'created', created);
      return created;
    });
    return toApiSchedule(row, await this.receivers(scope, row.recipientIds));
  }

  async update(
    actor: Actor,
    scope: ReportScope,
    id: string,
    input: ReportScheduleInput,
  ): Promise<ReportSchedule> {
    await this.manageable(actor, scope);
    const values = await this.valuesOf(scope, input);
    const row = await this.ctx.db.transaction(async (tx) => {
      const existing = await findSchedule(tx, scope, id, true);
      if (!existing) throw notFound();
      // Its next report stays due when it was: a change of recipients does not skip a period.
      const keepDue = existing.frequency === values.frequency && existing.enabled;
      const updated = await updateSchedule(
        tx,
        id,
        keepDue ? { ...values, nextDueAt: existing.nextDueAt } : values,
        this.ctx.now(),
      );
      await this.logSchedule(tx, actor, 'updated', updated, Object.keys(input).sort());
      return updated;
    });
    return toApiSchedule(row, await this.receivers(scope, row.recipientIds));
  }

  async delete(actor: Actor, scope: ReportScope, id: string, confirmName: string): Promise<void> {
    await this.manageable(actor, scope);
    await this.ctx.db.transaction(async (tx) => {
      const existing = await findSchedule(tx, scope, id, true);
      if (!existing) throw notFound();
      if (!typedNameMatches(confirmName, existing.name)) throw namesMismatch();
      await deleteSchedule(tx, id);
      await this.logSchedule(tx, actor, 'deleted', existing);
    });
  }

  private logSchedule(
    tx: Db,
    actor: Actor,
    action: EventAction,
    row: ScheduleRow,
    changedFields?: string[],
  ): Promise<void> {
    return recordChange(tx, this.ctx.now(), actor, {
      action,
      object: 'report_schedule',
      objectId: row.id,
      objectLabel: row.name,
      scope: { customerId: row.customerId, siteId: row.siteId },
      ...(changedFields ? { changedFields } : {}),
    });
  }

  async listReports(actor: Actor, scope: ReportScope): Promise<{ items: Report[]; total: number }> {
    await this.readable(actor, scope);
    // Bounded by what is kept; a page of 200 shows every report of 16 schedules.
    const rows = await listReports(this.ctx.db, scope, 200);
    return { items: rows.map(toApiReport), total: rows.length };
  }

  /** "Generate now": a report of the chosen days, stored with the scope's others and logged. */
  async generate(actor: Actor, scope: ReportScope, input: ReportGenerate): Promise<Report> {
    const names = await this.manageable(actor, scope);
    const period = { from: input.from, to: input.to };
    const data = await this.gather(scope, names, period, input.language, null);
    const files = await renderFiles(data, input.formats);
    const id = await this.ctx.db.transaction(async (tx) => {
      const created = await insertReport(tx, {
        scheduleId: null,
        scope,
        periodFrom: period.from,
        periodTo: period.to,
        language: input.language,
        ...files,
        createdBy: actor.name,
        createdAt: data.generatedAt,
      });
      await pruneReports(tx, { scope }, REPORTS_KEPT);
      await recordChange(tx, data.generatedAt, actor, {
        action: 'created',
        object: 'report',
        objectId: created!,
        objectLabel: `${period.from} – ${period.to}`,
        scope,
      });
      return created!;
    });
    const row = await findReport(this.ctx.db, scope, id);
    return toApiReport(row!);
  }

  /** A report's file as its route sends it. */
  async download(
    actor: Actor,
    scope: ReportScope,
    id: string,
    format: ReportFormat,
  ): Promise<{ fileName: string; body: Buffer }> {
    await this.readable(actor, scope);
    const file = await reportFile(this.ctx.db, scope, id, format);
    if (!file?.bytes) throw notFound();
    return {
      fileName: `report-${file.periodFrom}_${file.periodTo}.${format}`,
      body: Buffer.from(file.bytes),
    };
  }

  /**
   * The job's pass: each due schedule claimed, its report made outside any transaction, then
   * stored (once per period: the unique schedule and period), the schedule moved on and its
   * recipients' emails queued, in one transaction. Answers how many schedules were claimed.
   */
  async runDue(limit: number = REPORT_JOB.batchSize): Promise<number> {
    const now = this.ctx.now();
    const claimed = await this.ctx.db.transaction((tx) =>
      claimDueSchedules(tx, now, new Date(now.getTime() + REPORT_JOB.leaseMs), limit),
    );
    for (const schedule of claimed) await this.runOne(schedule);
    if (claimed.length > 0) this.ctx.mailer.kick();
    return claimed.length;
  }

  private async runOne(schedule: ScheduleRow): Promise<void> {
    const scope = { customerId: schedule.customerId, siteId: schedule.siteId };
    const [names, timezone] = await Promise.all([
      scopeNames(this.ctx.db, scope),
      this.consumption.timezoneOf(scope),
    ]);
    if (!names) return;
    const period = periodEndingAt(schedule.frequency, schedule.nextDueAt, timezone);
    const data = await this.gather(scope, names, period, schedule.language, schedule);
    const files = await renderFiles(data, schedule.formats);
    const receivers = await this.receivers(scope, schedule.recipientIds);
    await this.ctx.db.transaction(async (tx) => {
      // A schedule changed or deleted since its claim is left as it now is.
      const next = nextDueAt(schedule.frequency, startOfLocalDay(addDays(period.to, 1), timezone), timezone);
      if (!(await advanceSchedule(tx, schedule.id, schedule.nextDueAt, next))) return;
      const id = await insertReport(tx, {
        scheduleId: schedule.id,
        scope,
        periodFrom: period.from,
        periodTo: period.to,
        language: schedule.language,
        ...files,
        createdBy: null,
        createdAt: data.generatedAt,
      });
      if (!id) return;
      await pruneReports(tx, { scheduleId: schedule.id }, REPORTS_KEPT);
      await recordEvent(tx, data.generatedAt, {
        action: 'created',
        object: 'report',
        objectId: id,
        objectLabel: `${schedule.name}: ${period.from} – ${period.to}`,
        scope,
        by: null,
        origin: 'system',
      });
      await this.ctx.mailer.enqueue(tx, this.emails(schedule, names, period, receivers));
    });
  }

  private emails(
    schedule: ScheduleRow,
    names: { customerName: string; siteName: string | null },
    period: ReportPeriod,
    receivers: ReceiverRow[],
  ): EmailMessage[] {
    const path = schedule.siteId
      ? `/customers/${schedule.customerId}/sites/${schedule.siteId}/reports`
      : `/customers/${schedule.customerId}/reports`;
    const scopeName = names.siteName ? `${names.customerName} / ${names.siteName}` : names.customerName;
    return receivers.map((user) => {
      const mail = reportReadyEmail(
        user.language,
        {
          firstname: user.firstname,
          name: schedule.name,
          frequency: schedule.frequency,
          scope: scopeName,
          ...period,
        },
        `${this.ctx.config.publicUrl}${path}`,
      );
      return { to: user.email, ...mail, kind: 'report' };
    });
  }

  /**
   * What a report says over the period's local days, each part read from its own domain: the
   * consumption service's figures, the alerts opened, the activity log's closings, and leak
   * analytics' rules over the period's hours.
   */
  private async gather(
    scope: ReportScope,
    names: { customerName: string; siteName: string | null },
    period: ReportPeriod,
    language: Language,
    schedule: Pick<ScheduleRow, 'name' | 'frequency'> | null,
  ): Promise<ReportData> {
    const { db } = this.ctx;
    const consumption = await this.consumption.periodFigures(scope, period.from, period.to);
    const from = startOfLocalDay(period.from, consumption.timezone);
    const to = startOfLocalDay(addDays(period.to, 1), consumption.timezone);
    const zoneIds = consumption.zones.map((z) => z.zone.zoneId);
    const [alertCounts, closings, leaks] = await Promise.all([
      openedAlertCounts(db, scope, from, to),
      countEventsByAction(db, scope, CLOSING_ACTIONS, from, to),
      zoneHoursIn(db, zoneIds, from, to),
    ]);
    const zoneOf = new Map(consumption.zones.map((z) => [z.zone.zoneId, z.zone]));
    return {
      language,
      name: schedule?.name ?? null,
      frequency: schedule?.frequency ?? null,
      ...names,
      period,
      generatedAt: this.ctx.now(),
      consumption,
      alerts: alertCounts.map((a) => ({ ...a, name: CATEGORY_NAMES[language][a.category] })),
      closings: CLOSING_ACTIONS.map((action) => ({ action, count: closings.get(action) ?? 0 })),
      leaks: [...leaks]
        .map(([zoneId, { hours, occupants }]) => ({
          zone: zoneOf.get(zoneId)!,
          figures: periodLeakFigures(hours, consumption.timezone, period, occupants),
        }))
        .sort(
          (a, b) =>
            a.zone.siteName.localeCompare(b.zone.siteName) ||
            a.zone.buildingName.localeCompare(b.zone.buildingName) ||
            a.zone.zoneName.localeCompare(b.zone.zoneName),
        )
        .map(({ zone, figures }) => ({
          siteName: zone.siteName,
          buildingName: zone.buildingName,
          zoneName: zone.zoneName,
          ...figures,
        })),
    };
  }
}

const sortedFormats = (formats: readonly ReportFormat[]): ReportFormat[] =>
  (['csv', 'pdf'] as const).filter((f) => formats.includes(f));

async function renderFiles(
  data: ReportData,
  formats: readonly ReportFormat[],
): Promise<{ csv: Uint8Array | null; pdf: Uint8Array | null }> {
  return {
    csv: formats.includes('csv') ? encoder.encode(reportCsv(data)) : null,
    pdf: formats.includes('pdf') ? await reportPdf(data) : null,
  };
}

function toApiSchedule(row: ScheduleRow, receivers: ReceiverRow[]): ReportSchedule {
  const byId = new Map(receivers.map((r) => [r.id, r]));
  return {
    id: row.id,
    customer_id: row.customerId,
    site_id: row.siteId,
    name: row.name,
    frequency: row.frequency as ReportFrequency,
    formats: row.formats,
    language: row.language,
    // Named users who no longer read the scope are left out: they are not sent the report.
    recipients: row.recipientIds.flatMap((id) => {
      const user = byId.get(id);
      return user ? [{ id, name: nameOf(user), email: user.email }] : [];
    }),
    enabled: row.enabled,
    next_due_at: row.nextDueAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

function toApiReport(row: ReportListRow): Report {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    schedule_name: row.scheduleName,
    customer_id: row.customerId,
    site_id: row.siteId,
    period_from: row.periodFrom,
    period_to: row.periodTo,
    language: row.language,
    formats: [...(row.hasCsv ? (['csv'] as const) : []), ...(row.hasPdf ? (['pdf'] as const) : [])],
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
  };
}
