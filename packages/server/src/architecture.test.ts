import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md "Server layers", held by reading the source: the folders under
 * packages/server/src import each other without a cycle, and a domain's index.ts lends data, never
 * its services, routes or repo writes. The lint holds the file-level rules (eslint.layers.js); a
 * cycle between folders needs the whole graph, which is read here.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * Tests and their fixtures reach inside domains and build the whole app (test/harness.ts), so they
 * stand outside the graph: nothing of the product imports them.
 */
function isTestCode(path: string): boolean {
  return (
    /\.test\.ts$|\.testing\.ts$|(^|\/)testing\.ts$/.test(path) ||
    path.startsWith('test/') ||
    path.startsWith('http/fuzz/')
  );
}

function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/**
 * The files that put the domains together (docs/architecture.md): each is a node of its own, above
 * every domain, which none imports back. The job list is one of them although it sits in jobs/.
 */
const COMPOSITION = ['jobs/registry.ts'];

/** A folder under src, or a file at its root (app.ts, errors.ts…), which is a node of its own. */
function nodeOf(path: string): string {
  if (COMPOSITION.includes(path)) return path;
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

type Reexport = { name: string; typeOnly: boolean };
type Import = { from: string; to: string; typeOnly: boolean; reexports: Reexport[] };

/** The relative imports and re-exports of a source file, type-only ones included (a type is a dependency too). */
function importsOf(path: string): Import[] {
  const source = ts.createSourceFile(path, readFileSync(join(SRC, path), 'utf8'), ts.ScriptTarget.Latest);
  const found: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean, reexports: Reexport[]) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const to = relative(SRC, resolve(dirname(join(SRC, path)), specifier.text));
    found.push({ from: path, to, typeOnly, reexports });
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !clause?.name && named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
      add(statement.moduleSpecifier, Boolean(clause?.isTypeOnly || allTypes), []);
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const reexports =
        clause && ts.isNamedExports(clause)
          ? clause.elements.map((e) => ({
              name: e.name.text,
              typeOnly: statement.isTypeOnly || e.isTypeOnly,
            }))
          : [{ name: '*', typeOnly: statement.isTypeOnly }];
      add(statement.moduleSpecifier, statement.isTypeOnly, reexports);
    }
  }
  return found;
}

const IMPORTS = sourceFiles()
  .filter((path) => !isTestCode(path))
  .flatMap(importsOf);

/** Each edge between two nodes, with the imports that make it. */
function folderEdges(): Map<string, Import[]> {
  const edges = new Map<string, Import[]>();
  for (const entry of IMPORTS) {
    const from = nodeOf(entry.from);
    const to = nodeOf(entry.to);
    if (from === to) continue;
    const key = `${from} → ${to}`;
    edges.set(key, [...(edges.get(key) ?? []), entry]);
  }
  return edges;
}

/** A shortest cycle through each strongly connected group of nodes (Tarjan, then a search). */
function cyclesOf(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' → ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => [
    `among ${group.join(' ')}:`,
    ...shortestCycle(group[0]!, next, new Set(group)),
  ]);
}

function shortestCycle(start: string, next: Map<string, string[]>, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of next
      .get(node)!
      .filter((n) => within.has(n))
      .sort()) {
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

describe('server layers (docs/architecture.md)', () => {
  it('no folder under packages/server/src imports itself back through others', () => {
    const edges = folderEdges();
    const report = cyclesOf(edges.keys()).map(([among, ...cycle]) =>
      [
        among,
        ...cycle.slice(1).map((to, i) => {
          const edge = `${cycle[i]} → ${to}`;
          const by = edges.get(edge)!.map((e) => `${e.from} → ${e.to}`);
          return `${edge}  (${by.join(', ')})`;
        }),
      ].join('\n'),
    );
    expect(report).toEqual([]);
  });

  it('no file imports itself back through others either', () => {
    expect(cyclesOf(IMPORTS.map((entry) => `${entry.from} → ${entry.to}`))).toEqual([]);
  });
});

/** What the data-access layer stands on: nothing above it (http, the domains, the app). */
const BELOW_DB = ['db', 'errors.ts', 'tracing'];

/** A repo's writes, by the verb their name starts with (a lock is taken to write). */
const WRITES =
  /^(insert|update|upsert|delete|remove|mirror|revoke|lock|use|claim|record|notify|set|save|write|add|mark|clear|create|retire)/;

/**
 * Repo writes an index lends on purpose, each the owner's public write API with why: the activity
 * log and the live notifications are written by the domain that acts, in its own transaction
 * (events receive what they log).
 */
const PUBLIC_WRITES: Record<string, string> = {
  'events.recordEvent': 'the activity log line of an action, written in the acting transaction',
  'events.recordEvents': 'the activity log lines of an action, written in the acting transaction',
  'events.recordChange': 'the activity log line of a change, written in the changing transaction',
  'live.notifyLive': 'a live message sent at the commit of the transaction that made it',
  'live.notifyLiveAll': 'live messages sent at the commit of the transaction that made them',
  'zones.mirrorDeviceState':
    "a zone mirrors its flowboxes' valve and modes: ingest writes the device's report in its transaction",
  'flowboxes.lockDeviceAccounts':
    "the lock a pairing and the broker accounts' reconcile both take, so neither misses the other",
};

/**
 * What an index still lends against the rule, each with why: the list only shrinks.
 */
const KNOWN_INDEX_EXPORTS: Record<string, string> = {
  'users.insertUser':
    'an approved registration becomes a user in the approving transaction (endusers/activation.ts)',
};

/** What each domain's index.ts lends that it should not: services, routes, repo writes. */
function indexBreaches(): string[] {
  return IMPORTS.filter((entry) => /^[^/]+\/index\.ts$/.test(entry.from)).flatMap((entry) => {
    const domain = nodeOf(entry.from);
    // An index that imports a service or routes to lend them under another form lends them all the same.
    if (!entry.typeOnly && entry.reexports.length === 0 && /\.(service|routes)\.ts$/.test(entry.to))
      return [`${domain}.* (imports ${entry.to})`];
    return entry.reexports
      .filter(({ typeOnly }) => !typeOnly)
      .filter(({ name }) => {
        if (/\.(service|routes)\.ts$/.test(entry.to) || /Service$|Routes$|routes$|^\*$/.test(name))
          return true;
        if (!entry.to.endsWith('.repo.ts')) return false;
        return WRITES.test(name) && !(`${domain}.${name}` in PUBLIC_WRITES);
      })
      .map(({ name }) => `${domain}.${name} (from ${entry.to})`);
  });
}

describe("a domain's index.ts (docs/architecture.md)", () => {
  it('lends data, never a service, routes or a repo write', () => {
    const breaches = indexBreaches().filter((breach) => !(breach.split(' ')[0]! in KNOWN_INDEX_EXPORTS));
    expect(breaches).toEqual([]);
  });

  it('each known breach is still there (the list only shrinks)', () => {
    const breaches = new Set(indexBreaches().map((breach) => breach.split(' ')[0]!));
    expect(Object.keys(KNOWN_INDEX_EXPORTS).filter((name) => !breaches.has(name))).toEqual([]);
  });
});

describe('the data-access layer (db/)', () => {
  it('imports nothing above it: no domain, no http', () => {
    const above = IMPORTS.filter(
      (entry) => nodeOf(entry.from) === 'db' && !BELOW_DB.includes(nodeOf(entry.to)),
    ).map((entry) => `${entry.from} → ${entry.to}`);
    expect(above).toEqual([]);
  });
});
