import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FEATURES_DIR,
  featureCycles,
  featureGraph,
  featureImports,
  importChain,
  indexComponentExports,
} from '../feature-graph.js';

/*
 * docs/architecture.md "Web", held by reading the source, whatever the lint config says: features
 * import each other only through an index.ts that lends data, and without a cycle. Their components
 * meet in the app (app/routes/), which takes them from each feature's widgets.ts and pages.ts. A
 * feature's api/ folder holds one call a file (its fetcher, query options and hook).
 */

const imports = featureImports();

describe('the web features (docs/architecture.md "Web")', () => {
  it('import each other without a cycle', () => {
    expect(featureCycles(featureGraph(imports))).toEqual([]);
  });

  it('import another feature only through its index.ts, never its components, widgets or pages', () => {
    const inside = imports.filter(({ target }) => !/^[^/]+\/index\.ts$/.test(target));
    expect(inside.map(({ file, line, target }) => `${file}:${line} → ${target}`)).toEqual([]);
  });

  it('lend other features no component from their index.ts', () => {
    expect(indexComponentExports()).toEqual([]);
  });

  it('keep one hook a file in their api/ folders', () => {
    const crowded = readdirSync(FEATURES_DIR).flatMap((feature) => {
      const api = join(FEATURES_DIR, feature, 'api');
      const files = readdirSync(join(FEATURES_DIR, feature)).includes('api') ? readdirSync(api) : [];
      return files
        .filter((file) => !file.endsWith('.test.ts'))
        .map((file) => ({
          file: `${feature}/api/${file}`,
          hooks: readFileSync(join(api, file), 'utf8').match(/^export (const|function) use[A-Z]\w*/gm) ?? [],
        }))
        .filter(({ hooks }) => hooks.length > 1);
    });
    expect(crowded).toEqual([]);
  });

  it('are read whole: the graph has the features and the imports the app is built on', () => {
    const graph = featureGraph(imports);
    // Guards against a reader that finds nothing, which would pass the checks above.
    expect(imports.length).toBeGreaterThan(100);
    expect(importChain(graph, 'flowboxes', 'zones')).toEqual(['flowboxes', 'zones']);
    expect(importChain(graph, 'zones', 'flowboxes')).toBeNull();
  });
});
