import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';

/** What a spreadsheet runs as a formula when a cell starts with it, after spaces or quotes. */
const RUNS = /^[ "\u00a0]*[=+\-@＝＋－＠]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Every cell some spreadsheet could cut from a line, the worst case: cut at a comma, a semicolon
 * (French locales), a tab or a line break, quotes not honoured.
 */
const anyCells = (line: string) => line.replace(/\r\n$/, '').split(/[,;\t\r\n]/);

/** RFC 4180, comma-separated, quotes honoured: the fields as written. */
function rfc4180Fields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      fields.push(field);
      field = '';
    } else if (!quoted && c === '\r' && line[i + 1] === '\n' && i + 2 === line.length) {
      break;
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
}

describe('a CSV line', () => {
  it('quotes what RFC 4180 asks to quote', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'plain'])).toBe(
      '"a,b","say ""hi""","two\nlines",plain\r\n',
    );
  });

  it('writes any cell a spreadsheet would run as a formula as text, whoever wrote it', () => {
    expect(csvLine(['=1+1', '+33 6', '-x', '@SUM(A1)', '\tx', '\rx'])).toBe(
      "'=1+1,'+33 6,'-x,'@SUM(A1),\"'\tx\",\"'\rx\"\r\n",
    );
  });

  it('leaves numbers and dates as they are, negative ones too', () => {
    expect(csvLine(['-3.5', '12', '0.250', '-0', '2026-11-25 09:00-05:00', ''])).toBe(
      '-3.5,12,0.250,-0,2026-11-25 09:00-05:00,\r\n',
    );
  });

  it('quotes a semicolon and a tab too, and neutralises a formula after any of them (issue 30)', () => {
    // French spreadsheets cut at semicolons: unquoted, this name gave a cell `=cmd|' /C calc'!A0`.
    expect(csvLine(["Gre;=cmd|' /C calc'!A0;", 'x'])).toBe(`"Gre;'=cmd|' /C calc'!A0;",x\r\n`);
    expect(csvLine(['a\t@SUM(A1)', 'b\n+1', 'c,-x', ' =1', '"=1"', '＝1+1'])).toBe(
      `"a\t'@SUM(A1)","b\n'+1","c,'-x",' =1,"'""=1""",'＝1+1\r\n`,
    );
    expect(csvLine(['a;-3.5', '-3.5'])).toBe(`"a;'-3.5",-3.5\r\n`);
  });

  it('never lets any cell a spreadsheet could cut start a formula, and keeps every field', () => {
    const text = fc.string({
      unit: fc.constantFrom(
        'a',
        '1',
        '.',
        ' ',
        '"',
        "'",
        ',',
        ';',
        '\t',
        '\r',
        '\n',
        '=',
        '+',
        '-',
        '@',
        '＝',
      ),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (fields) => {
        const line = csvLine(fields);
        for (const cell of anyCells(line)) expect(RUNS.test(cell) && !NUMBER.test(cell), line).toBe(false);
        // What was written is each field, only a `'` added where a cell would start.
        const unmarked = (value: string) => value.replace(/(^|[,;\t\r\n])'/g, '$1');
        expect(rfc4180Fields(line).map(unmarked)).toEqual(fields.map(unmarked));
      }),
      { seed: 30, numRuns: 2000 },
    );
  });
});
