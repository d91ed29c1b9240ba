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

/*
 * docs/architecture.md "Where authorisation lives": only access/ decides what an actor may do. Outside
 * it, no code compares a user's role, its customer or places, or reads a permission's value, and no function named like a
 * rule (require…, can…, may…) takes an Actor: services and the few routes without a service call
 * access/'s functions. Roles that are not users' stand outside the rule, each named here with why.
 */
const NOT_USER_ROLES: Record<string, string> = {
  'mqtt/broker.ts': "an MQTT identity's role (a device or its bootstrap account), not a user's",
  'mqtt/device-accounts.ts': "an MQTT identity's role (a device or its bootstrap account), not a user's",
  'flowboxes/device-auth.ts': "an MQTT identity's role (a device or its bootstrap account), not a user's",
  'seed/': "the seed creates each role's demo accounts and the first provider manager; it decides no access",
};

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** An actor's tenancy: `actor.customerId`, `actor.siteIds`, `actor.zoneIds` (its customer, its places). */
const isActorTenancy = (node: ts.Expression): boolean =>
  ts.isPropertyAccessExpression(node) &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'actor' &&
  ['customerId', 'siteIds', 'zoneIds'].includes(node.name.text);

/**
 * `x.role`, `ROLES.x`, a permission's value (`x.permissions[p]`, `'authorised'`, `'denied'`), or
 * an actor's tenancy (comparing it to a row's customer or place is deciding access).
 */
function isRoleOrPermission(node: ts.Expression): boolean {
  if (isActorTenancy(node)) return true;
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'role') return true;
    if (ts.isIdentifier(node.expression) && node.expression.text === 'ROLES') return true;
    const owner = node.expression;
    return ts.isPropertyAccessExpression(owner) && owner.name.text === 'permissions';
  }
  return ts.isStringLiteral(node) && (node.text === 'authorised' || node.text === 'denied');
}

/** A presence check (`x.role === undefined`) compares no role. */
const isNothing = (node: ts.Expression) =>
  node.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(node) && node.text === 'undefined');

const namesActor = (type: ts.TypeNode | undefined): boolean =>
  type !== undefined && /\bActor\b/.test(type.getText());

/** The role comparisons, permission reads and rule-named functions of one file, as `path: code`. */
function authorisationIn(path: string): string[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(join(SRC, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      const sides = [node.left, node.right];
      if (sides.some(isRoleOrPermission) && !sides.some(isNothing)) found.push(node.getText());
    }
    if (ts.isCaseClause(node) && isRoleOrPermission(node.expression)) found.push(node.getText());
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'includes' &&
      (node.arguments.some(isRoleOrPermission) || isActorTenancy(node.expression.expression))
    )
      found.push(node.getText());
    const named =
      ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)
        ? node.name?.getText()
        : ts.isVariableDeclaration(node) && node.initializer && ts.isArrowFunction(node.initializer)
          ? node.name.getText()
          : undefined;
    const fn = ts.isVariableDeclaration(node) ? node.initializer : node;
    if (
      named &&
      /^(require|can|may)[A-Z]/.test(named) &&
      fn &&
      ts.isFunctionLike(fn) &&
      fn.parameters.some((p) => namesActor(p.type))
    )
      found.push(`function ${named}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map((code) => `${path}: ${code.replace(/\s+/g, ' ')}`);
}

describe('where authorisation lives (docs/architecture.md)', () => {
  it('authorisation lives in access/', () => {
    const outside = sourceFiles()
      .filter((path) => !isTestCode(path) && !path.startsWith('access/'))
      .filter((path) => !Object.keys(NOT_USER_ROLES).some((allowed) => path.startsWith(allowed)))
      .flatMap(authorisationIn);
    expect(outside).toEqual([]);
  });

  it('each file allowed its roles still compares them (the list only shrinks)', () => {
    const unused = Object.keys(NOT_USER_ROLES).filter(
      (allowed) =>
        !sourceFiles()
          .filter((path) => !isTestCode(path) && path.startsWith(allowed))
          .some((path) => authorisationIn(path).length > 0),
    );
    expect(unused).toEqual([]);
  });
});

/*
 * docs/architecture.md "Server layers": the hierarchy's joins (a flowbox's zone, a zone's building,
 * a building's site, a site's customer, or the other way down) are written once, in db/scope.ts
 * (`joinUp`, `joinUpSql`, `withZoneScope`…), so every query places a row through the same keys and
 * indexes. A join along one of those keys written by hand, in the query builder or in raw SQL, is
 * refused anywhere else.
 */

/** Each level below the customer, with its foreign key to the level above, as drizzle and SQL name them. */
const HIERARCHY_KEYS = [
  { table: 'flowboxes', key: 'zoneId', column: 'zone_id', parent: 'zones' },
  { table: 'zones', key: 'buildingId', column: 'building_id', parent: 'buildings' },
  { table: 'buildings', key: 'siteId', column: 'site_id', parent: 'sites' },
  { table: 'sites', key: 'customerId', column: 'customer_id', parent: 'customers' },
];

/** Whether `a = b` joins a level to the one above it (`zones.buildingId` and `buildings.id`, either way round). */
function joinsLevels(a: string, b: string, form: 'key' | 'column'): boolean {
  return HIERARCHY_KEYS.some((level) => {
    const child = `${level.table}.${level[form]}`;
    const parent = `${level.parent}.id`;
    return (a === child && b === parent) || (a === parent && b === child);
  });
}

/** The text between the parenthesis at `open` and the one that closes it. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/**
 * The hierarchy joins written in one file, as `line: condition`: a query builder join whose
 * condition compares a level's key with its parent's id, and a raw SQL `JOIN … ON` doing the same
 * with the tables' aliases (`JOIN zones z ON z.id = f.zone_id` after `FROM flowboxes f`).
 */
function hierarchyJoinsIn(path: string): string[] {
  const text = readFileSync(join(SRC, path), 'utf8');
  const line = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const call of text.matchAll(/\b(?:inner|left|right|full)Join\(/g)) {
    const condition = argumentsAt(text, call.index + call[0].length - 1);
    for (const eq of condition.matchAll(/\beq\(\s*(\w+\.\w+)\s*,\s*(\w+\.\w+)\s*\)/g))
      if (joinsLevels(eq[1]!, eq[2]!, 'key')) found.push(`${line(call.index)}: ${eq[0]}`);
  }
  const tableOf = new Map<string, string>();
  const named =
    /\b(?:FROM|JOIN)\s+(?:\$\{)?(flowboxes|zones|buildings|sites|customers)\}?\s+(?:AS\s+)?(\w+)/gi;
  for (const [, table, alias] of text.matchAll(named))
    if (!/^(ON|WHERE|JOIN|LEFT|INNER|CROSS|GROUP|ORDER|LIMIT)$/i.test(alias!)) tableOf.set(alias!, table!);
  const on = /\bJOIN\s[^`]*?\bON\b([^`]*?)(?=\b(?:JOIN|WHERE|GROUP|ORDER|LIMIT)\b|`|$)/gi;
  for (const clause of text.matchAll(on))
    for (const [equality, a, aColumn, b, bColumn] of clause[1]!.matchAll(
      /\b(\w+)\.(\w+)\s*=\s*(\w+)\.(\w+)\b/g,
    )) {
      const left = `${tableOf.get(a!) ?? a}.${aColumn}`;
      const right = `${tableOf.get(b!) ?? b}.${bColumn}`;
      if (joinsLevels(left, right, 'column')) found.push(`${line(clause.index)}: ${equality}`);
    }
  return found;
}

/** Files that still join the hierarchy by hand, each with why: the list only shrinks. */
const HAND_WRITTEN_JOINS: Record<string, string> = {};

const SCOPED_FILES = sourceFiles().filter((path) => !isTestCode(path) && path !== 'db/scope.ts');

describe('the hierarchy joins (db/scope.ts)', () => {
  it('are written in db/scope.ts only, in the query builder and in raw SQL alike', () => {
    const found = SCOPED_FILES.filter((path) => !(path in HAND_WRITTEN_JOINS)).flatMap((path) =>
      hierarchyJoinsIn(path).map((written) => `${path}:${written}`),
    );
    expect(found).toEqual([]);
  });

  it('each file still joining by hand does so (the list only shrinks)', () => {
    expect(Object.keys(HAND_WRITTEN_JOINS).filter((path) => hierarchyJoinsIn(path).length === 0)).toEqual([]);
  });
});
