import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  FEATURES_DIR,
  featureGraph,
  featureImports,
  featureOf,
  importChain,
  specifiersOf,
} from './feature-graph.js';

const FEATURES = readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const THROUGH_INDEX =
  "A feature reaches another only through that feature's index.ts, which lends data (hooks, " +
  'query options, types, functions); its components are composed by the app (app/routes/), from ' +
  'its widgets.ts and pages.ts (docs/architecture.md "Web").';
const FROM_THE_APP =
  "The app takes a feature's index.ts, pages.ts (or <name>-pages.ts) and widgets.ts, nothing else.";
const INDEX_LENDS_DATA =
  "A feature's index.ts lends data (hooks, query options, types, functions), no component: a " +
  'component the app composes into other pages is exported from widgets.ts.';
const BELOW_FEATURES = 'Shared UI (components/) and lib/ stand below the features and import none.';

const restrict = (regex, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
});

/**
 * For a file `depth` folders below its feature's root, another feature is `../` repeated
 * depth + 1 times, then that feature's name: anything but its index.ts is refused.
 */
const featureBoundaries = (feature) =>
  [0, 1, 2].map((depth) => ({
    files: [`packages/web/src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: restrict(`^(\\.\\./){${depth + 1}}(?!${feature}/)[^./][^/]*/(?!index\\.ts$)`, THROUGH_INDEX),
  }));

/** A feature's index.ts lends no component: a value re-exported from a `.tsx` file is refused. */
const indexLendsData = {
  meta: { type: 'problem', schema: [], messages: { component: INDEX_LENDS_DATA } },
  create(context) {
    const check = (node) => {
      const [found] = specifiersOf(context.filename, context.sourceCode.getText(node));
      if (found && found.specifier.endsWith('.tsx') && found.valueNames.length > 0)
        context.report({ node, messageId: 'component' });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/**
 * No import cycle between features: an import into another feature is refused when that feature
 * already reaches this one. The graph is every feature file on disk (feature-graph.js), each parsed
 * again only once changed; this file's own imports are those being linted.
 */
/**
 * The features' imports, read again at most once a second: a lint run walks the folder a few times
 * instead of once per file, and an editor sees another file's change within a second.
 */
let recent = { at: -Infinity, imports: [] };
function currentFeatureImports() {
  if (performance.now() - recent.at > 1000) recent = { at: performance.now(), imports: featureImports() };
  return recent.imports;
}

const noFeatureCycle = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { cycle: '{{chain}}: features import each other in a cycle.' },
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    if (!from) return {};
    const others = currentFeatureImports().filter((edge) => !file.endsWith(`/features/${edge.file}`));
    const graph = featureGraph(others);
    const check = (node, literal) => {
      if (typeof literal?.value !== 'string' || !literal.value.startsWith('.')) return;
      const to = featureOf(resolve(dirname(file), literal.value));
      if (!to || to === from) return;
      const back = importChain(graph, to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { chain: [from, ...back].join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

const featurePlugin = { rules: { 'index-lends-data': indexLendsData, 'no-cycle': noFeatureCycle } };

/**
 * ESLint config for the web features (docs/architecture.md "Web"). A feature imports another only
 * through its index.ts, which lends data and no component; features import each other without a
 * cycle. The app composes: it takes a feature's pages.ts (its routed pages; a page that must load
 * apart from the others, such as the sign-in page, has its own `<name>-pages.ts`) and widgets.ts
 * (the components it lends other features' pages and the shell), which no feature imports. Shared UI
 * and lib/ import no feature.
 */
export const webBoundaries = [
  {
    files: ['packages/web/src/*.{ts,tsx}', 'packages/web/src/app/**/*.{ts,tsx}'],
    rules: restrict('(^|/)features/[^/]+/(?!(index|widgets|([a-z-]+-)?pages)\\.ts$)', FROM_THE_APP),
  },
  {
    files: ['packages/web/src/{components,lib}/**/*.{ts,tsx}'],
    rules: restrict('(^|/)features/', BELOW_FEATURES),
  },
  ...FEATURES.flatMap(featureBoundaries),
  {
    files: ['packages/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { features: featurePlugin },
    rules: { 'features/no-cycle': 'error' },
  },
  {
    files: ['packages/web/src/features/*/index.ts'],
    plugins: { features: featurePlugin },
    rules: { 'features/index-lends-data': 'error' },
  },
];
