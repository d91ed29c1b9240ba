import {
  afterExit,
  BACKTEST_MAX_DECISIONS,
  EMPTY_DETECTION,
  heldDueAt,
  volumeMarginOutOfBounds,
  type Backtest,
  type BacktestDecision,
  type BacktestRequest,
  type BacktestRun,
  type DetectionState,
} from '@flowbox/shared';
import { requireSiteManage, type Actor } from '../access/access.ts';
import { zoneAnswerSummary } from '../alerts/index.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import type { ZonePath } from '../http/params.ts';
import type { ZoneAutomation } from './automation.repo.ts';
import { storedBatches, zoneClosures, type Closure } from './backtest.repo.ts';
import { litresPer, rulesOf } from './detection-state.ts';
import {
  decideZoneBatch,
  type AutomationReading,
  type ZoneDecision,
  type ZoneRules,
} from './zone-decisions.ts';
import { findZoneAutomation } from './zone-automation.ts';

/** Stored readings read per query: the backtest's memory is bounded by this and one batch. */
export const BACKTEST_PAGE = 5000;

/**
 * Backtest before saving (issue #29, docs/automation.md "Backtest"): the zone's stored readings of
 * the last days, batch by batch as ingest committed them (same receipt, same placement on the
 * server's time line), through `decideZoneBatch`, the function the live listener calls, once with
 * the settings in force and once with the proposed ones. The zone's real closings and the exits
 * that reopened them hold each side's closings as they held the zone.
 */
export class AutomationBacktest {
  constructor(
    private readonly ctx: Context,
    private readonly pageSize = BACKTEST_PAGE,
  ) {}

  async run(actor: Actor, path: ZonePath, input: BacktestRequest): Promise<Backtest> {
    requireSiteManage(actor, path.customerId, path.siteId, 'automation.manage');
    const db = this.ctx.db;
    const found = await findZoneAutomation(db, path);
    const proposed = proposedRules(found, input);
    const to = this.ctx.now();
    const from = new Date(to.getTime() - input.days * 86_400_000);
    const closures = await zoneClosures(db, path.zoneId, from, to);
    const replays = [
      new Replay(backtestRules(rulesOf(found)), closures),
      new Replay(proposed, closures),
    ] as const;
    let readings = 0;
    for await (const batch of storedBatches(db, path.zoneId, from, to, this.pageSize)) {
      readings += batch.readings.length;
      for (const replay of replays) replay.feed(batch.receivedAt, batch.readings);
    }
    for (const replay of replays) replay.sweepUntil(to);
    return {
      zone_id: path.zoneId,
      from: from.toISOString(),
      to: to.toISOString(),
      days: input.days,
      readings,
      volume_unit: found.building.volumeUnit,
      in_force: replays[0].result(),
      proposed: replays[1].result(),
      answers: await zoneAnswerSummary(db, path.zoneId, to),
    };
  }
}

/**
 * Modes are not settings: leak-detection mode lasts hours and maintenance is a spell of work, so the
 * backtest answers what the margins and hours do, with neither (docs/automation.md "Backtest").
 */
const backtestRules = (rules: ZoneRules): ZoneRules => ({
  ...rules,
  maintenanceMode: false,
  leakDetectionMode: false,
});

/** The rules in force with the request's parts put in; a volume margin outside its bounds is refused. */
function proposedRules(found: ZoneAutomation, input: BacktestRequest): ZoneRules {
  const inForce = backtestRules(rulesOf(found));
  const unit = found.building.volumeUnit;
  let { margins, automaticClosingEnabled } = inForce;
  const proposal = input.automatic_closing;
  if (proposal) {
    const bounds =
      proposal.volume_margin === null ? null : volumeMarginOutOfBounds(proposal.volume_margin, unit);
    if (bounds)
      throw new AppError('errors.validation', {}, [
        { path: 'automatic_closing.volume_margin', message: 'validation.between', params: bounds },
      ]);
    automaticClosingEnabled = proposal.automatic_closing_enabled;
    margins = {
      volumeMl:
        proposal.volume_margin_enabled && proposal.volume_margin !== null
          ? Math.round(proposal.volume_margin * litresPer(unit) * 1000)
          : null,
      flowS:
        proposal.duration_margin_enabled && proposal.duration_margin_minutes !== null
          ? proposal.duration_margin_minutes * 60
          : null,
    };
  }
  return {
    ...inForce,
    margins,
    automaticClosingEnabled,
    zone: {
      ...inForce.zone,
      profile: input.profile ?? inForce.zone.profile,
      openingHours:
        input.opening_hours === undefined
          ? inForce.zone.openingHours
          : (input.opening_hours ?? found.building.openingHours),
    },
  };
}

/**
 * One side of the backtest: detection's state, the lock, and what was decided. A closing holds the
 * zone as long as the real zone was held then (until a user's exit, as lock-exit.ts does: the lock
 * lifts and detection rests an hour). A closing the real zone did not make is taken as reopened
 * at once, with that hour of rest: each is a closing someone would have had to undo.
 */
class Replay {
  private state: DetectionState = EMPTY_DETECTION;
  private locked = false;
  /** While locked: when the lock lifts (null: not within the window). */
  private reopensAt: Date | null = null;
  private closings = 0;
  private alerts = 0;
  private readonly decisions: BacktestDecision[] = [];

  constructor(
    private readonly rules: ZoneRules,
    private readonly closures: readonly Closure[],
  ) {}

  /**
   * One committed batch of the zone's readings, judged at its receipt as the listener judged it;
   * before it, readings held past a hole whose wait ended, judged then as the sweep judged them.
   */
  feed(receivedAt: Date, readings: readonly AutomationReading[]): void {
    this.sweepUntil(receivedAt);
    this.judge(receivedAt, readings);
  }

  /** The sweep of held readings (held-readings.job.ts) up to a time. */
  sweepUntil(at: Date): void {
    for (let due = heldDueAt(this.state); due && due <= at; due = heldDueAt(this.state)) this.judge(due, []);
  }

  private judge(receivedAt: Date, readings: readonly AutomationReading[]): void {
    if (this.locked && this.reopensAt && this.reopensAt <= receivedAt) this.reopen(this.reopensAt);
    const verdict = decideZoneBatch(this.state, readings, this.rules, this.locked, receivedAt);
    this.state = verdict.state;
    this.locked = verdict.locked;
    for (const decision of verdict.decisions) {
      if (decision.kind === 'closing') this.closings += 1;
      else this.alerts += 1;
      if (this.decisions.length < BACKTEST_MAX_DECISIONS) this.decisions.push(toApi(decision, receivedAt));
      if (decision.kind === 'closing') {
        const real = this.closures.find(
          (c) => c.closedAt <= receivedAt && (c.reopenedAt === null || receivedAt < c.reopenedAt),
        );
        if (real) this.reopensAt = real.reopenedAt;
        else this.reopen(receivedAt);
      }
    }
  }

  private reopen(at: Date): void {
    this.state = afterExit(this.state, at);
    this.locked = false;
    this.reopensAt = null;
  }

  result(): BacktestRun {
    return {
      closings: this.closings,
      alerts: this.alerts,
      decisions: this.decisions,
      truncated: this.closings + this.alerts > this.decisions.length,
    };
  }
}

function toApi(decision: ZoneDecision, at: Date): BacktestDecision {
  if (decision.kind === 'closing' || decision.cause === 'abnormal_consumption') {
    const { crossing } = decision;
    return {
      kind: decision.kind,
      cause: decision.kind === 'closing' ? 'automatic_closing' : decision.cause,
      at: at.toISOString(),
      event_started_at: crossing.eventStartedAt?.toISOString() ?? null,
      crossed_at: crossing.at.toISOString(),
      volume_l: crossing.volumeMl / 1000,
      flow_s: crossing.flowS,
      trigger: crossing.trigger,
      reported_late: 'endedAt' in crossing,
    };
  }
  const { leak } = decision;
  return {
    kind: 'alert',
    cause: decision.cause,
    at: at.toISOString(),
    event_started_at: leak.eventStartedAt?.toISOString() ?? null,
    crossed_at: leak.at.toISOString(),
    volume_l: leak.volumeMl / 1000,
    flow_s: leak.flowS,
    trigger: null,
    reported_late: false,
  };
}
