import { displayDate, localDate, type Language } from '@flowbox/shared';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ReportData } from './report-data.ts';
import { readerAmount, readerNumber, readerPeriod, REPORT_TEXTS } from './report-texts.ts';

/*
 * A report as PDF, drawn on the server by pdf-lib with the standard Helvetica fonts: no browser, no
 * font file (docs/reports.md "PDF"). Those fonts encode WinAnsi (Windows-1252) only: French accents,
 * €, « », ’ and – are in it, but not the narrow no-break space Intl puts in French numbers
 * ("1 234,5"), nor ≥ or →, and drawing one throws. Every text goes through `winAnsi` first.
 */

/** What WinAnsi lacks, as the nearest text it has; anything else missing becomes "?". */
const REPLACEMENTS: Record<string, string> = {
  // Intl's French group separator and the space before a currency sign: a plain space, which is
  // also what a reader copying the text from the PDF gets.
  '\u202f': ' ',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u2212': '-',
  '≥': '>=',
  '≤': '<=',
  '→': '->',
  '←': '<-',
};

/** `text` with only what the font can draw (its character set, WinAnsi for the standard fonts). */
export function winAnsi(text: string, drawable: ReadonlySet<number>): string {
  let out = '';
  for (const char of text) {
    const replaced = REPLACEMENTS[char] ?? char;
    out += [...replaced].every((c) => drawable.has(c.codePointAt(0)!)) ? replaced : '?';
  }
  return out;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const GREY = rgb(0.35, 0.35, 0.35);

/** Lines of text down A4 pages: titles, key-value lines and tables whose cells are cut to fit. */
class PdfWriter {
  private page: PDFPage;
  private y: number;
  private readonly drawable: ReadonlySet<number>;

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.drawable = new Set(font.getCharacterSet());
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  private room(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** `text` cut with an ellipsis to `width` points. */
  private fit(text: string, font: PDFFont, size: number, width: number): string {
    let safe = winAnsi(text, this.drawable);
    if (font.widthOfTextAtSize(safe, size) <= width) return safe;
    while (safe.length > 1 && font.widthOfTextAtSize(`${safe}…`, size) > width) safe = safe.slice(0, -1);
    return `${safe}…`;
  }

  text(text: string, options: { size?: number; bold?: boolean; grey?: boolean; gap?: number } = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    this.room(size + 6);
    this.y -= size + (options.gap ?? 4);
    this.page.drawText(this.fit(text, font, size, A4[0] - 2 * MARGIN), {
      x: MARGIN,
      y: this.y,
      size,
      font,
      ...(options.grey ? { color: GREY } : {}),
    });
  }

  /** A table: `widths` are shares of the line; numbers (`right` columns) aligned right. */
  table(header: readonly string[], rows: string[][], widths: number[], right: ReadonlySet<number>): void {
    const line = A4[0] - 2 * MARGIN;
    const total = widths.reduce((a, b) => a + b, 0);
    const columns = widths.map((w) => (w / total) * line);
    const draw = (cells: readonly string[], font: PDFFont) => {
      this.room(16);
      this.y -= 14;
      let x = MARGIN;
      cells.forEach((cell, i) => {
        const width = columns[i]! - 6;
        const text = this.fit(cell, font, 9, width);
        const shift = right.has(i) ? width - font.widthOfTextAtSize(text, 9) : 0;
        this.page.drawText(text, { x: x + shift, y: this.y, size: 9, font });
        x += columns[i]!;
      });
    };
    draw(header, this.bold);
    for (const row of rows) draw(row, this.font);
  }
}

/** The report's PDF: a title block, then consumption and cost, alerts, closings and leaks. */
export async function reportPdf(data: ReportData): Promise<Uint8Array> {
  const t = REPORT_TEXTS[data.language];
  const lang: Language = data.language;
  const c = data.consumption;
  const doc = await PDFDocument.create();
  // Fixed dates and producer: the same report makes the same bytes (no clock inside pdf-lib's output).
  doc.setTitle(`${t.title} – ${data.customerName}`);
  doc.setLanguage(lang === 'fr' ? 'fr-FR' : 'en-US');
  doc.setProducer('Flowbox Manager');
  doc.setCreator('Flowbox Manager');
  doc.setCreationDate(data.generatedAt);
  doc.setModificationDate(data.generatedAt);
  const w = new PdfWriter(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  w.text(data.name ? `${t.title} – ${data.name}` : t.title, { size: 18, bold: true });
  w.text(`${t.customer}: ${data.customerName}`, { gap: 10 });
  w.text(`${t.site}: ${data.siteName ?? t.allSites}`);
  w.text(`${t.period}: ${readerPeriod(data.period.from, data.period.to, lang)}`);
  w.text(`${t.timezone}: ${c.timezone}`, { grey: true });
  const day = (at: Date) => displayDate(localDate(at, c.timezone), lang);
  w.text(`${t.generated}: ${day(data.generatedAt)}`, { grey: true });

  const money = (cost: string | null, currency: string) =>
    cost === null ? t.notBilled : readerAmount(cost, currency, lang);
  w.text(t.consumption, { size: 13, bold: true, gap: 16 });
  if (c.zones.length === 0) w.text(t.noZones, { grey: true });
  else
    w.table(
      [
        t.zoneColumns[0],
        t.zoneColumns[1],
        t.zoneColumns[2],
        `${t.zoneColumns[3]} (${c.volumeUnit})`,
        t.zoneColumns[5],
      ],
      [
        ...c.zones.map(({ zone, volume, cost }) => [
          zone.siteName,
          zone.buildingName,
          zone.zoneName,
          readerNumber(volume, lang),
          money(cost, zone.currency),
        ]),
        [t.total, '', '', readerNumber(c.total.volume, lang), money(c.total.cost, c.currency)],
        ...c.total.otherCurrencies.map((o) => [t.total, '', '', '', readerAmount(o.cost, o.currency, lang)]),
      ],
      [3, 3, 3, 2, 2],
      new Set([3, 4]),
    );

  w.text(t.tiers, { size: 13, bold: true, gap: 16 });
  if (c.tiers.length === 0) w.text(t.noTiers, { grey: true });
  else
    w.table(
      t.tierPdfColumns,
      c.tiers.map((tier) => [
        displayDate(tier.priceFrom, lang),
        tier.end === null
          ? `${readerNumber(tier.start, lang)} ${tier.volumeUnit} ${t.andMore}`
          : `${readerNumber(tier.start, lang)} – ${readerNumber(tier.end, lang)} ${tier.volumeUnit}`,
        `${readerAmount(tier.pricePerUnit, tier.currency, lang, 6)} / ${tier.volumeUnit}`,
        `${readerNumber(tier.volume, lang)} ${tier.volumeUnit}`,
        readerAmount(tier.cost, tier.currency, lang),
      ]),
      [2, 3, 3, 3, 2],
      new Set([3, 4]),
    );

  w.text(t.alerts, { size: 13, bold: true, gap: 16 });
  if (data.alerts.length === 0) w.text(t.noAlerts, { grey: true });
  else
    w.table(
      t.alertColumns,
      data.alerts.map((a) => [a.name, readerNumber(a.opened, lang), readerNumber(a.resolved, lang)]),
      [6, 2, 2],
      new Set([1, 2]),
    );

  w.text(t.closings, { size: 13, bold: true, gap: 16 });
  w.table(
    t.closingColumns,
    data.closings.map((closing) => [t.closingNames[closing.action], readerNumber(closing.count, lang)]),
    [8, 2],
    new Set([1]),
  );

  w.text(t.leaks, { size: 13, bold: true, gap: 16 });
  if (data.leaks.length === 0) w.text(t.noLeaks, { grey: true });
  else
    w.table(
      t.leakColumns,
      data.leaks.map((leak) => [
        leak.siteName,
        leak.buildingName,
        leak.zoneName,
        readerNumber(leak.continuousFlowDays, lang),
        leak.nightFlowLph === null ? t.notComputed : readerNumber(leak.nightFlowLph, lang, 1),
        readerNumber(leak.allowanceLph, lang, 1),
        readerNumber(leak.nights, lang),
      ]),
      [2, 2, 2, 3, 2, 2, 2],
      new Set([3, 4, 5]),
    );
  return doc.save();
}
