import type { AlertCategory } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { FlowboxScope } from '../db/scope.ts';

/** An alert automatic closing raises (docs/automation.md "Alerts"). */
export type AutomationAlert = {
  category: Extract<
    AlertCategory,
    | 'abnormal_water_consumption_with_ac'
    | 'abnormal_water_consumption_no_ac'
    | 'leakage_detection'
    | 'flowbox_dysfunction'
  >;
  scope: FlowboxScope;
  flowboxId?: string;
  flowboxSerial?: string;
  /** One open alert per cause: a repeat of the same cause counts instead of opening another. */
  cause: string;
  details: Record<string, string | number | boolean | null>;
  /** Asked for by the zone's people (away mode): raised on a basic zone too (RaiseAlertInput). */
  askedFor?: boolean;
};

/** Raises an alert in the caller's transaction, so it exists exactly when the detection does. */
export type RaiseAlert = (tx: Db, alert: AutomationAlert) => Promise<void>;

/**
 * Dependency: the alerts module (packages/server/src/alerts, issue #8 "Alerts and notifications")
 * exports `raiseAlert(tx, { category, zoneId, flowboxId?, cause, details })`. Until app.ts passes
 * it here, automation's alerts are not stored: detection, closing, lock and activity log work alone.
 */
export const alertsNotWired: RaiseAlert = async () => undefined;
