import { csvLine } from '../http/csv.ts';
import type { ReportData } from './report-data.ts';
import { REPORT_TEXTS } from './report-texts.ts';

/**
 * A report as CSV (docs/reports.md "CSV"): its sections one after the other, each a title line,
 * a header line and its rows, a blank line between them. Numbers and dates stay machine-readable
 * (12.345, yyyy-MM-dd), as in the consumption export, whose writer and BOM it shares; names are in
 * the report's language.
 */
export function reportCsv(data: ReportData): string {
  const t = REPORT_TEXTS[data.language];
  const { consumption: c } = data;
  const lines: string[][] = [
    [t.title, data.customerName, data.siteName ?? t.allSites],
    [t.period, data.period.from, data.period.to],
    [t.timezone, c.timezone],
    [],
    [t.consumption],
    [...t.zoneColumns],
    ...c.zones.map(({ zone, volume, cost }) => [
      zone.siteName,
      zone.buildingName,
      zone.zoneName,
      volume,
      c.volumeUnit,
      cost ?? '',
      cost === null ? '' : zone.currency,
    ]),
    [
      t.total,
      '',
      '',
      c.total.volume,
      c.volumeUnit,
      c.total.cost ?? '',
      c.total.cost === null ? '' : c.currency,
    ],
    ...c.total.otherCurrencies.map((other) => [t.total, '', '', '', '', other.cost, other.currency]),
    [],
    [t.tiers],
    [...t.tierColumns],
    ...c.tiers.map((tier) => [
      tier.priceFrom,
      tier.start,
      tier.end ?? '',
      tier.pricePerUnit,
      tier.volume,
      tier.volumeUnit,
      tier.cost,
      tier.currency,
    ]),
    [],
    [t.alerts],
    [...t.alertColumns],
    ...data.alerts.map((a) => [a.name, String(a.opened), String(a.resolved)]),
    [],
    [t.closings],
    [...t.closingColumns],
    ...data.closings.map((closing) => [t.closingNames[closing.action], String(closing.count)]),
    [],
    [t.leaks],
    [...t.leakColumns],
    ...data.leaks.map((leak) => [
      leak.siteName,
      leak.buildingName,
      leak.zoneName,
      String(leak.continuousFlowDays),
      leak.nightFlowLph === null ? '' : leak.nightFlowLph.toFixed(1),
      leak.allowanceLph.toFixed(1),
      String(leak.nights),
    ]),
  ];
  return `\uFEFF${lines.map((line) => (line.length === 0 ? '\r\n' : csvLine(line))).join('')}`;
}
