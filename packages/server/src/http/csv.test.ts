import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';

describe('a CSV line', () => {
  it('quotes what RFC 4180 asks to quote', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'plain'])).toBe(
      '"a,b","say ""hi""","two\nlines",plain\r\n',
    );
  });

  it('writes any cell a spreadsheet would run as a formula as text, whoever wrote it', () => {
    expect(csvLine(['=1+1', '+33 6', '-x', '@SUM(A1)', '\tx', '\rx'])).toBe(
      "'=1+1,'+33 6,'-x,'@SUM(A1),'\tx,\"'\rx\"\r\n",
    );
  });

  it('leaves numbers and dates as they are, negative ones too', () => {
    expect(csvLine(['-3.5', '12', '0.250', '-0', '2026-11-25 09:00-05:00', ''])).toBe(
      '-3.5,12,0.250,-0,2026-11-25 09:00-05:00,\r\n',
    );
  });
});
