import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/** One chunk of Vite's build manifest (dist/.vite/manifest.json), keyed by its source. */
type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
export type Manifest = Record<string, ManifestChunk>;

/** What every signed-in page loads: the shell and the signed-in screens' texts (router.tsx). */
const SHELL = ['src/app/AppLayout.tsx', 'src/lib/i18n/features.ts'];

/**
 * The lazily loaded modules (router.tsx) that a route fetches besides the entry; the signed-in
 * pages all load the shell. The consumption graphs' ECharts chunk is not listed: it loads with the
 * first graph, after the page is on screen.
 */
export const ROUTE_MODULES = {
  '/login': ['src/features/auth/login-pages.ts'],
  '/register': ['src/features/auth/pages.ts'],
  '/ (dashboard)': [...SHELL, 'src/app/routes/dashboard.tsx'],
  '/…/zone/:zoneId': [...SHELL, 'src/app/routes/zones.tsx'],
  '/…/flowbox/:flowboxId': [...SHELL, 'src/app/routes/flowboxes.tsx'],
} as const;
export type RouteName = keyof typeof ROUTE_MODULES;

/** Where the build writes which modules each chunk holds, beside Vite's manifest (home-chunk.ts). */
export const CHUNK_MODULES_FILE = '.vite/chunk-modules.json';

/** The first screen's budget (issue 16): JavaScript and CSS of /login, gzipped. */
export const LOGIN_BUDGET_KB = 150;

/**
 * Vite's manifest, where a module merged into a group's chunk (home-chunk.ts) is also found under
 * its own name, as the chunk that holds it.
 */
export async function readManifest(distDir: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const modules = JSON.parse(await readFile(join(distDir, CHUNK_MODULES_FILE), 'utf8')) as Record<
    string,
    string[]
  >;
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  for (const [file, held] of Object.entries(modules)) {
    const chunk = byFile.get(file);
    if (!chunk) continue;
    for (const module of held) manifest[module] ??= chunk;
  }
  return manifest;
}

/** Every JavaScript and CSS file a route needs before it shows: the entry, its lazy modules, their static imports. */
export function routeFiles(manifest: Manifest, modules: readonly string[]): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The build manifest has no entry');
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [entry, ...modules]) visit(key);
  return [...files].sort();
}

/** Gzipped at the level the build's precompressed copies use (build/precompress.ts). */
export async function gzippedKb(distDir: string, files: readonly string[]): Promise<number> {
  let bytes = 0;
  for (const file of files) {
    const content = await readFile(join(distDir, file));
    bytes += gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length;
  }
  return bytes / 1024;
}

/** Each route's JavaScript and CSS in KB gzipped, from a built dist directory. */
export async function routeWeights(distDir: string): Promise<Record<RouteName, number>> {
  const manifest = await readManifest(distDir);
  const weights = {} as Record<RouteName, number>;
  for (const [route, modules] of Object.entries(ROUTE_MODULES) as [RouteName, readonly string[]][]) {
    weights[route] = await gzippedKb(distDir, routeFiles(manifest, modules));
  }
  return weights;
}
