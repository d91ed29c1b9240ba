/**
 * A PostgreSQL array literal of uuids, numbers, booleans or ISO timestamps (nothing that needs
 * quoting), so a whole column travels as one parameter and `unnest` turns the columns back into
 * rows: one short statement for a batch of rows whatever its size, on PostgreSQL and PGlite alike,
 * instead of a statement or ten parameters a row (issue #6, docs/performance.md "Ingest").
 */
export function arrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
}

/**
 * A PostgreSQL array literal of any texts (JSON documents, say): each element quoted, its
 * backslashes and double quotes escaped, so that commas, braces and spaces inside stay its own.
 */
export function quotedArrayLiteral(values: readonly (string | null)[]): string {
  const quote = (v: string) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return `{${values.map((v) => (v === null ? 'NULL' : quote(v))).join(',')}}`;
}
