import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * The imports between the web features (packages/web/src/features/<name>/), read from their source:
 * what the lint's feature rules (eslint.boundaries.js) and src/architecture.test.ts check. A feature
 * is a node; an import of any kind (a type, a re-export, a lazy `import()`) from one feature's file
 * into another feature's folder is an edge. Tests stand outside the graph: no product file imports
 * them.
 */

export const FEATURES_DIR = fileURLToPath(new URL('src/features', import.meta.url));

const isSource = (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name);

/** Every product source file under `dir`, absolute. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return isSource(entry.name) ? [path] : [];
  });
}

/**
 * The relative module specifiers of a source text, each with its line, whether only types come
 * through it (`import type`, `export type`, every named binding a type) and the values it names.
 *
 * @param {string} path
 * @param {string} text
 * @returns {{ specifier: string, line: number, typeOnly: boolean, valueNames: string[] }[]}
 */
export function specifiersOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const add = (node, literal, typeOnly, valueNames = []) => {
    if (!literal || !ts.isStringLiteral(literal) || !literal.text.startsWith('.')) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: literal.text, line, typeOnly, valueNames });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const valueNames = clause?.isTypeOnly
        ? []
        : [
            ...(clause?.name ? [clause.name.text] : []),
            ...(named && ts.isNamespaceImport(named) ? [named.name.text] : []),
            ...(named && ts.isNamedImports(named)
              ? named.elements.filter((element) => !element.isTypeOnly).map((element) => element.name.text)
              : []),
          ];
      // A bare `import './x'` runs the module: a value dependency.
      add(node, node.moduleSpecifier, clause !== undefined && valueNames.length === 0, valueNames);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const valueNames =
        node.isTypeOnly || !clause
          ? node.isTypeOnly
            ? []
            : ['*']
          : ts.isNamedExports(clause)
            ? clause.elements.filter((element) => !element.isTypeOnly).map((element) => element.name.text)
            : [clause.name.text];
      add(node, node.moduleSpecifier, valueNames.length === 0, valueNames);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1
    ) {
      add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The feature a path under the features folder belongs to, or undefined outside it. */
export function featureOf(path, featuresDir = FEATURES_DIR) {
  const inside = relative(featuresDir, path);
  if (inside.startsWith('..') || inside === '') return undefined;
  return inside.split(sep)[0];
}

const parsed = new Map();

/** A file's specifiers, parsed again only when the file changed since (a long-lived linter). */
function cachedSpecifiers(path) {
  const { mtimeMs } = statSync(path);
  const hit = parsed.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.specifiers;
  const specifiers = specifiersOf(path, readFileSync(path, 'utf8'));
  parsed.set(path, { mtimeMs, specifiers });
  return specifiers;
}

/**
 * @typedef {{ from: string, to: string, file: string, line: number, target: string, typeOnly: boolean }} FeatureImport
 * `file` and `target` relative to the features folder, with `/`.
 */

/**
 * Every import from one feature into another.
 *
 * @param {string} [featuresDir]
 * @returns {FeatureImport[]}
 */
export function featureImports(featuresDir = FEATURES_DIR) {
  const name = (path) => relative(featuresDir, path).split(sep).join('/');
  return sourceFiles(featuresDir).flatMap((file) => {
    const from = featureOf(file, featuresDir);
    return cachedSpecifiers(file).flatMap(({ specifier, line, typeOnly }) => {
      const target = resolve(dirname(file), specifier);
      const to = featureOf(target, featuresDir);
      if (!to || to === from) return [];
      return [{ from, to, file: name(file), line, target: name(target), typeOnly }];
    });
  });
}

/** The features each feature imports. */
export function featureGraph(imports) {
  const graph = new Map();
  for (const { from, to } of imports) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from).add(to);
  }
  return graph;
}

/** A shortest chain of imports from feature `start` to feature `goal` ([start, …, goal]), or null. */
export function importChain(graph, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const feature = queue.shift();
    if (feature === goal) {
      const chain = [];
      for (let at = goal; at !== null; at = previous.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of graph.get(feature) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, feature);
      queue.push(next);
    }
  }
  return null;
}

/** The groups of features that import each other (strongly connected, two or more), each sorted. */
export function featureCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const connect = (feature) => {
    index.set(feature, next);
    low.set(feature, next);
    next += 1;
    stack.push(feature);
    onStack.add(feature);
    for (const to of graph.get(feature) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(feature, Math.min(low.get(feature), low.get(to)));
      } else if (onStack.has(to)) low.set(feature, Math.min(low.get(feature), index.get(to)));
    }
    if (low.get(feature) !== index.get(feature)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== feature);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const feature of graph.keys()) if (!index.has(feature)) connect(feature);
  return cycles;
}

/**
 * What a feature's index.ts lends that is a component: a value re-exported from a `.tsx` file (a
 * type from one is data). Components go to the app through the feature's widgets.ts or pages.ts.
 *
 * @returns {{ file: string, line: number, names: string[] }[]}
 */
export function indexComponentExports(featuresDir = FEATURES_DIR) {
  return readdirSync(featuresDir, { withFileTypes: true }).flatMap((entry) => {
    const file = join(featuresDir, entry.name, 'index.ts');
    if (!entry.isDirectory() || !existsAsFile(file)) return [];
    return specifiersOf(file, readFileSync(file, 'utf8'))
      .filter(({ specifier, valueNames }) => specifier.endsWith('.tsx') && valueNames.length > 0)
      .map(({ line, valueNames }) => ({ file: `${entry.name}/index.ts`, line, names: valueNames }));
  });
}

function existsAsFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
