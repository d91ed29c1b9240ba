import { readdirSync } from 'node:fs';

const FEATURES = readdirSync(new URL('src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const THROUGH_INDEX =
  "A feature reaches another only through that feature's index.ts; its pages.ts is for the router.";

const restrict = (regex) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex, message: THROUGH_INDEX }] }],
});

/**
 * For a file `depth` folders below its feature's root, another feature is `../` repeated
 * depth + 1 times, then that feature's name: anything but its index.ts is refused.
 */
const featureBoundaries = (feature) =>
  [0, 1, 2].map((depth) => ({
    files: [`packages/web/src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: restrict(`^(\\.\\./){${depth + 1}}(?!${feature}/)[^./][^/]*/(?!index\\.ts$)`),
  }));

/**
 * ESLint config: a web feature imports another feature only through its index.ts (what features
 * share); the app also takes a feature's pages.ts (its routed pages; a page that must load apart
 * from the others, such as the sign-in page, has its own `<name>-pages.ts`), which no feature
 * imports, so that a page composing several features never closes an import cycle.
 */
export const webBoundaries = [
  {
    files: ['packages/web/src/*.{ts,tsx}', 'packages/web/src/{app,components,lib}/**/*.{ts,tsx}'],
    rules: restrict('(^|/)features/[^/]+/(?!(index|([a-z-]+-)?pages)\\.ts$)'),
  },
  ...FEATURES.flatMap(featureBoundaries),
];
