import type { AlertCategory, Language, ReportFrequency } from '@flowbox/shared';
import type { PeriodFigures } from '../consumption/consumption.service.ts';
import type { ReportPeriod } from './periods.ts';
import type { PeriodLeakFigures } from './report-leaks.ts';

/** What a closing is in a report: the activity log's lines that close water (docs/reports.md). */
export const CLOSING_ACTIONS = [
  'valve_closed',
  'automatic_closing_triggered',
  'scheduled_closing_started',
] as const;
export type ClosingAction = (typeof CLOSING_ACTIONS)[number];

/** Everything a report's files say, gathered once and written as CSV and as PDF. */
export type ReportData = {
  language: Language;
  name: string | null;
  frequency: ReportFrequency | null;
  customerName: string;
  siteName: string | null;
  period: ReportPeriod;
  generatedAt: Date;
  consumption: PeriodFigures;
  alerts: { category: AlertCategory; name: string; opened: number; resolved: number }[];
  closings: { action: ClosingAction; count: number }[];
  /** Zones with hourly figures in the period: their leak figures over the period alone. */
  leaks: ({ siteName: string; buildingName: string; zoneName: string } & PeriodLeakFigures)[];
};
