import type {
  AutomaticClosingSettings,
  Automation,
  AwayMode,
  AwayModeInput,
  Backtest,
  BacktestRequest,
} from '@flowbox/shared';
import type { Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import type { ZonePath } from '../http/params.ts';
import type { RaiseAlert } from './alerting.ts';
import { AwayModes } from './away-mode.ts';
import { AutomationBacktest } from './backtest.ts';
import { DetectionListener, type AutomationReading } from './detection-listener.ts';
import { ZoneLock } from './lock-exit.ts';
import { SafetyCloses } from './safety-closes.ts';
import { AutomationSettings } from './settings.ts';
import { SafetySupervision } from './supervision.ts';

export { SAFETY_CLOSE_TTL_S } from './safety-closes.ts';
export { SAFETY_CONFIRM_S } from './supervision.ts';
export type { AutomationReading } from './detection-listener.ts';

/**
 * Automatic closing (spec §3, §4, §9; docs/automation.md): a zone's margins (settings.ts), detection
 * on each committed batch of readings (detection-listener.ts), the safety close with its lock and
 * the exit by name (lock-exit.ts, safety-closes.ts), and the supervision of the closes
 * (supervision.ts), and away mode (away-mode.ts). One object for app.ts, the routes and the jobs.
 */
export class AutomationService {
  private readonly settings: AutomationSettings;
  private readonly zoneLock: ZoneLock;
  private readonly safetyCloses: SafetyCloses;
  private readonly detection: DetectionListener;
  private readonly supervision: SafetySupervision;
  private readonly backtests: AutomationBacktest;
  private readonly away: AwayModes;

  constructor(ctx: Context, commands: CommandsService, raiseAlert: RaiseAlert) {
    this.settings = new AutomationSettings(ctx);
    this.safetyCloses = new SafetyCloses(commands);
    this.zoneLock = new ZoneLock(ctx, commands, this.safetyCloses, raiseAlert);
    this.away = new AwayModes(ctx, this.safetyCloses, raiseAlert);
    this.detection = new DetectionListener(ctx, this.zoneLock, this.safetyCloses, raiseAlert, this.away);
    this.supervision = new SafetySupervision(ctx, this.safetyCloses, raiseAlert);
    this.backtests = new AutomationBacktest(ctx);
  }

  info(actor: Actor, path: ZonePath): Promise<Automation> {
    return this.settings.info(actor, path);
  }

  updateSettings(actor: Actor, path: ZonePath, input: AutomaticClosingSettings): Promise<Automation> {
    return this.settings.update(actor, path, input);
  }

  /** What proposed settings would have done over the zone's stored past, beside the settings in force. */
  backtest(actor: Actor, path: ZonePath, input: BacktestRequest): Promise<Backtest> {
    return this.backtests.run(actor, path, input);
  }

  /** Away mode (docs/automation.md "Away mode"): read, set, switched off. */
  awayMode(actor: Actor, path: ZonePath): Promise<AwayMode> {
    return this.away.info(actor, path);
  }

  setAwayMode(actor: Actor, path: ZonePath, input: AwayModeInput): Promise<AwayMode> {
    return this.away.set(actor, path, input);
  }

  clearAwayMode(actor: Actor, path: ZonePath): Promise<AwayMode> {
    return this.away.clear(actor, path);
  }

  exit(actor: Actor, path: ZonePath, confirmName: string): Promise<Automation> {
    return this.zoneLock.exit(actor, path, confirmName);
  }

  listener() {
    return this.detection.listener();
  }

  detectInTransaction(tx: Db, readings: readonly AutomationReading[]): Promise<void> {
    return this.detection.detectInTransaction(tx, readings);
  }

  sendQueuedClosings(tx: Db): Promise<void> {
    return this.safetyCloses.sendQueued(tx);
  }

  /** Zones whose readings held past a hole have waited their time, judged (the held_readings job). */
  sweepHeldReadings(): Promise<number> {
    return this.detection.sweepHeld();
  }

  superviseSafetyCloses(): Promise<number> {
    return this.supervision.pass();
  }
}
