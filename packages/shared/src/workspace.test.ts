// The workspace's package manifests say what the code needs: every file a manifest names exists,
// every package the code imports is declared where it will be installed (run-time code in
// `dependencies`, tests and tooling in the package's or the root's `devDependencies`), and every
// declared dependency is used. A dependency that is only there by hoisting breaks a deployment
// with `npm ci --omit=dev` in one package; one nobody imports is installed and audited for nothing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const packagesDir = join(root, 'packages');

type Manifest = {
  name: string;
  /** Conditional: "source" (TypeScript, for tests, tsx and Vite), "types" and "default" (the build). */
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** Dependencies used without an import in source: named by a config file or a CLI. */
const USED_WITHOUT_IMPORT: Record<string, string[]> = {
  '@flowbox/web': ['tailwindcss'],
};

const readJson = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8')) as Manifest;
const rootManifest = readJson(join(root, 'package.json'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** Package names imported by a file (static, dynamic and type imports, re-exports), as TypeScript reads them. */
function importedPackages(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const names = new Set<string>();
  for (const { fileName: specifier } of importedFiles) {
    if (specifier.startsWith('.') || specifier.startsWith('/')) continue;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return [...names];
}

/** Test code, fixtures and tooling: may use devDependencies. */
const isDevFile = (path: string) =>
  /(\.test|\.testing|test-helpers)\.tsx?$/.test(path) ||
  /[\\/](test|fuzz|faults)[\\/]/.test(path) ||
  /(vite|vitest|drizzle)\.config\.ts$/.test(path) ||
  // The web build's own plugins (packages/web/build/), run by vite at build time only.
  /packages[\\/]web[\\/]build[\\/]/.test(path) ||
  // The lint's rules and the feature graph they read (packages/web/eslint.*.js), run by eslint only.
  /packages[\\/]web[\\/](eslint\.[^\\/]+|feature-graph)\.js$/.test(path);

const packages = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, 'package.json')))
  .map((name) => ({
    dir: join(packagesDir, name),
    manifest: readJson(join(packagesDir, name, 'package.json')),
  }));

describe('workspace manifests', () => {
  it.each(packages.map((p) => [p.manifest.name, p] as const))('%s names files that exist', (_name, pkg) => {
    const targets = Object.values(pkg.manifest.exports ?? {}).map((t) =>
      typeof t === 'string' ? { default: t } : t,
    );
    // The build's files exist after `npm run build` (scripts/prod-smoke.mjs runs them); a source must exist now.
    const named = [...targets.map((t) => t.source ?? t.default!), ...Object.values(pkg.manifest.bin ?? {})];
    const missing = named.filter((file) => !existsSync(join(pkg.dir, file)));
    expect(missing).toEqual([]);
  });

  it.each(packages.filter((p) => p.manifest.exports).map((p) => [p.manifest.name, p] as const))(
    '%s exports its sources under "source" and their build otherwise',
    (_name, pkg) => {
      for (const target of Object.values(pkg.manifest.exports!)) {
        expect(typeof target).toBe('object');
        const t = target as Record<string, string>;
        // "source" first: a resolver takes the first condition it knows.
        expect(Object.keys(t)).toEqual(['source', 'types', 'default']);
        const built = t.source!.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
        expect(t.types).toBe(`${built}.d.ts`);
        expect(t.default).toBe(`${built}.js`);
      }
    },
  );

  it.each(packages.map((p) => [p.manifest.name, p] as const))(
    '%s declares what it imports and imports what it declares',
    (_name, pkg) => {
      const deps = Object.keys(pkg.manifest.dependencies ?? {});
      const devDeps = [
        ...Object.keys(pkg.manifest.devDependencies ?? {}),
        ...Object.keys(rootManifest.devDependencies ?? {}),
      ];
      const undeclared: string[] = [];
      const used = new Set<string>(USED_WITHOUT_IMPORT[pkg.manifest.name] ?? []);
      for (const file of sourceFiles(pkg.dir)) {
        for (const name of importedPackages(file)) {
          if (name === pkg.manifest.name) continue;
          used.add(name);
          const declared = deps.includes(name) || (isDevFile(file) && devDeps.includes(name));
          if (!declared) undeclared.push(`${file.slice(root.length + 1)}: ${name}`);
        }
      }
      expect(undeclared).toEqual([]);
      const unused = [...deps, ...Object.keys(pkg.manifest.devDependencies ?? {})].filter(
        (name) => !used.has(name) && !used.has(name.replace(/^@types\//, '')),
      );
      expect(unused).toEqual([]);
    },
  );
});
