/**
 * The one CSV writer of the server (the consumption and fleet exports; docs/consumption.md "CSV
 * export"): RFC 4180 lines, safe in any spreadsheet whatever a user or a device wrote in a cell.
 */

/**
 * Where a spreadsheet may start a cell inside a field: a comma, a semicolon (French locales cut
 * there when they open a file), a tab, or a line break. Quotes do not save a field that a reader
 * cuts with another separator: `"Gre;=cmd"` read at semicolons gave a cell `=cmd"` (issue 30).
 */
const CELL_CUT = /([,;\t\r\n])/;
/** What a spreadsheet runs as a formula (OWASP "CSV injection"), after spaces or quotes, full-width forms too. */
const FORMULA_START = /^[ "\u00a0]*[=+\-@＝＋－＠]/;
/** A plain number, negative ones included: written as it is, so it stays a number. */
const NUMBER = /^-?\d+(\.\d+)?$/;
/** What RFC 4180 quotes, with the semicolon and the tab some readers cut at. */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** A leading apostrophe, shown by no spreadsheet, makes a would-be formula text. */
const asText = (part: string) => (FORMULA_START.test(part) ? `'${part}` : part);

/**
 * One cell: a number as it is; otherwise every piece of it a spreadsheet could read as a cell (its
 * start, and what follows each separator or line break) that would run as a formula gets a leading
 * apostrophe, as does a field starting with a tab or a carriage return; then RFC 4180: a field
 * holding a comma, a semicolon, a tab, a quote or a line break is quoted, its quotes doubled.
 */
export function csvField(value: string): string {
  if (NUMBER.test(value)) return value;
  const text = (/^[\t\r]/.test(value) ? `'${value}` : value)
    .split(CELL_CUT)
    .map((part, index) => (index % 2 === 0 ? asText(part) : part))
    .join('');
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
