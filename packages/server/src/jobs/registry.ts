import { alertEmailsJob } from '../alerts/alert-emails.job.ts';
import type { Services } from '../app.ts';
import { RAW_RETENTION_DAYS_DEFAULT } from '../config.ts';
import { heldReadingsJob } from '../automation/held-readings.job.ts';
import { safetyCloseSupervisionJob } from '../automation/safety-close-supervision.job.ts';
import { subscriptionRenewalsJob } from '../billing/subscription-renewals.job.ts';
import type { Db } from '../db/client.ts';
import { firmwareRolloutsJob } from '../firmware/firmware-rollouts.job.ts';
import { firmwareTimeoutsJob } from '../firmware/firmware-timeouts.job.ts';
import { fleetOpenAlertCountsJob } from '../fleet/fleet-open-alert-counts.job.ts';
import { commandDispatchJob } from '../flowboxes/command-dispatch.job.ts';
import { heartbeatCheckJob } from '../flowboxes/heartbeat-check.job.ts';
import { emailsJob } from '../mail/emails.job.ts';
import { pushDeliveriesJob } from '../push/push-deliveries.job.ts';
import { webhookDeliveriesJob } from '../webhooks/webhook-deliveries.job.ts';
import { deliveryProbeJob } from '../mqtt/delivery-probe.job.ts';
import { deviceAccountsReconcileJob } from '../mqtt/device-accounts-reconcile.job.ts';
import type { DeviceMessaging } from '../mqtt/index.ts';
import { scheduledClosingsJob } from '../schedules/scheduled-closings.job.ts';
import { readingPartitionsJob } from '../telemetry/reading-partitions.job.ts';
import { scheduledReportsJob } from '../reports/scheduled-reports.job.ts';
import { waterBalanceNightsJob } from '../water-balance/water-balance-nights.job.ts';
import type { Job, JobRunner } from './jobs.ts';

/*
 * Every periodic job of an instance, each declared beside its domain in a `<name>.job.ts`
 * (docs/architecture.md "Jobs", whose table registry.test.ts holds to this list).
 */

/** What the jobs are built from: the app's services and database, and device messaging. */
export type JobParts = {
  services: Pick<
    Services,
    | 'subscriptions'
    | 'mailer'
    | 'commands'
    | 'scheduleRunner'
    | 'automation'
    | 'alertNotifier'
    | 'pushDelivery'
    | 'webhookDelivery'
    | 'firmwareUpdates'
    | 'rolloutRunner'
    | 'waterBalance'
    | 'reports'
    | 'context'
  >;
  db: Db;
  /** SMTP_URL is set: queued emails are retried (without a relay they are only stored). */
  smtp: boolean;
  messaging: Pick<DeviceMessaging, 'ingest' | 'probeDelivery' | 'accounts'>;
  /** TELEMETRY_RAW_RETENTION_DAYS: raw readings older than this are dropped, a week at a time. */
  rawRetentionDays?: number;
};

/**
 * Device messaging's jobs, first of the instance's so that they stop last, just before it closes;
 * tests start them with it (flowboxes/testing.ts).
 */
export function messagingJobs(
  messaging: JobParts['messaging'],
  commands: JobParts['services']['commands'],
): Job[] {
  return [
    deliveryProbeJob(messaging),
    commandDispatchJob(commands),
    heartbeatCheckJob(messaging.ingest),
    ...(messaging.accounts ? [deviceAccountsReconcileJob(messaging.accounts)] : []),
  ];
}

/** The instance's jobs, in the order they start; `startJobs` stops them in the reverse order. */
export function instanceJobs({ services, db, smtp, messaging, rawRetentionDays }: JobParts): Job[] {
  return [
    ...messagingJobs(messaging, services.commands),
    subscriptionRenewalsJob(services.subscriptions),
    ...(smtp ? [emailsJob(services.mailer)] : []),
    scheduledClosingsJob(services.scheduleRunner),
    safetyCloseSupervisionJob(services.automation),
    heldReadingsJob(services.automation),
    alertEmailsJob(services.alertNotifier),
    pushDeliveriesJob(services.pushDelivery),
    webhookDeliveriesJob(services.webhookDelivery),
    firmwareTimeoutsJob(services.firmwareUpdates),
    firmwareRolloutsJob(services.rolloutRunner),
    fleetOpenAlertCountsJob(db),
    waterBalanceNightsJob(services.waterBalance),
    scheduledReportsJob(services.reports),
    readingPartitionsJob(db, () => services.context.now(), rawRetentionDays ?? RAW_RETENTION_DAYS_DEFAULT),
  ];
}

/** Starts the jobs on the runner; the answer stops them, last started first, each pass awaited. */
export function startJobs(runner: Pick<JobRunner, 'start'>, jobs: readonly Job[]): () => Promise<void> {
  const running = jobs.map((job) => runner.start(job));
  return async () => {
    for (const job of [...running].reverse()) await job.stop();
  };
}
