// The shared package's layers (docs/architecture.md "Server layers", shared part): `domain/` holds
// what a flowbox, a zone and a building are (models, valve states, units, weekdays) and imports
// nothing else of the package; the device protocol (`protocol/`) and the detection core never import
// the HTTP contract (`api/`). A file outside `api/` may import it only when it is itself part of the
// contract, and is named below with why.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = import.meta.dirname;

/** Files outside api/ that are request or answer schemas themselves (they validate API bodies). */
const CONTRACT_OUTSIDE_API: Record<string, string> = {
  'automation/backtest.ts': 'the backtest request and answer (opening hours as the API takes them)',
  'automation/settings.ts': 'the automatic-closing settings body (a name confirmation, api/errors.ts)',
  'billing/plans.ts': 'the pricing-plan bodies (countries and list offsets of the API)',
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.testing.ts') ? [path] : [];
  });
}

/** Each source file (relative to src/) and the package files it imports (relative to src/). */
const imports = new Map(
  files(src).map((path) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    const local = importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(src, resolve(dirname(path), name)));
    return [relative(src, path), local] as const;
  }),
);

const topOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : file);

describe('shared layers', () => {
  it('finds the files it checks', () => {
    expect(imports.get('protocol/messages.ts')).toContain('domain/flowboxes.ts');
  });

  it('domain/ imports nothing of the package but itself', () => {
    const outside = [...imports]
      .filter(([file]) => topOf(file) === 'domain')
      .flatMap(([file, deps]) => deps.filter((d) => topOf(d) !== 'domain').map((d) => `${file} → ${d}`));
    expect(outside).toEqual([]);
  });

  it('only api/, the index and the contract files named here import api/', () => {
    const wrong = [...imports]
      .filter(([file]) => topOf(file) !== 'api' && file !== 'index.ts' && !(file in CONTRACT_OUTSIDE_API))
      .flatMap(([file, deps]) => deps.filter((d) => topOf(d) === 'api').map((d) => `${file} → ${d}`));
    expect(wrong).toEqual([]);
    // Each exception still is one (an entry left behind would hide nothing, but would lie).
    for (const file of Object.keys(CONTRACT_OUTSIDE_API))
      expect(
        imports.get(file)?.some((d) => topOf(d) === 'api'),
        file,
      ).toBe(true);
  });
});
