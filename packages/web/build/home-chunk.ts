import { relative, sep } from 'node:path';
import { build, type InlineConfig, type Plugin, type Rolldown } from 'vite';
import { CHUNK_MODULES_FILE, ROUTE_MODULES } from './route-weights.ts';

/**
 * The signed-in home's own modules as one chunk (issue 16).
 *
 * Left to itself the bundler gives each set of features sharing a module a chunk of its own: the
 * dashboard then needs some forty files, most of a kilobyte or two. On a phone's network each file
 * is a request (six at a time over HTTP/1.1, a round trip each) and a `<link rel=modulepreload>` to
 * insert, which cost the first screen more than their bytes.
 *
 * Which modules those are is known only once the bundler has shaken the unused exports out (a
 * feature's index.ts re-exports forms, hence zod, that the dashboard never runs), so the build runs
 * twice: a first pass, not written, with the bundler's own chunks; then the real build, where every
 * module of the first pass's home files (the shell, its texts, the dashboard and what they import,
 * less the entry's files and the framework) goes into one `home` chunk. The sign-in pages load
 * nothing of it; another feature's page that uses one of its modules loads it, as it loads the
 * shell. What a screen imports later (the graphs, the map, the forms' schemas) keeps its
 * own chunk.
 */

/** The first screen after signing in, and what a visitor loads before it (none of which may move into the home chunk). */
const HOME_ROOTS: readonly string[] = ROUTE_MODULES['/ (dashboard)'];
const SIGN_IN_ROOTS: readonly string[] = [...ROUTE_MODULES['/login'], ...ROUTE_MODULES['/register']];

/** Set while the first pass builds: that pass makes no home chunk and writes nothing. */
const FIRST_PASS = 'FLOWBOX_WEB_FIRST_PASS';
export const isFirstPass = () => process.env[FIRST_PASS] === '1';

type Chunk = Rolldown.OutputChunk;

/** The home's modules in a first pass's chunks: absolute ids, as the bundler names modules. */
export function homeModulesOf(chunks: readonly Chunk[], root: string, framework: RegExp): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const name = (id: string) => relative(root, id).split(sep).join('/');
  const closure = (start: readonly Chunk[]) => {
    const seen = new Set<Chunk>();
    const stack = [...start];
    for (let chunk = stack.pop(); chunk; chunk = stack.pop()) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const file of chunk.imports) {
        const imported = byFile.get(file);
        if (imported) stack.push(imported);
      }
    }
    return seen;
  };
  const signIn = chunks.filter(
    (chunk) => chunk.isEntry || (chunk.facadeModuleId && SIGN_IN_ROOTS.includes(name(chunk.facadeModuleId))),
  );
  const roots = chunks.filter(
    (chunk) => chunk.facadeModuleId && HOME_ROOTS.includes(name(chunk.facadeModuleId)),
  );
  if (roots.length !== HOME_ROOTS.length)
    throw new Error(
      `home-chunk: the first pass has ${roots.length} of the home's ${HOME_ROOTS.length} chunks`,
    );
  const signInFiles = closure(signIn);
  const modules = new Set<string>();
  for (const chunk of closure(roots)) {
    if (signInFiles.has(chunk)) continue;
    for (const id of chunk.moduleIds) if (!framework.test(id) && !id.startsWith('\0')) modules.add(id);
  }
  return modules;
}

/** Runs the first pass of `configFile` and answers the home's modules. */
export async function firstPassHomeModules(
  configFile: string,
  root: string,
  mode: string,
  framework: RegExp,
): Promise<Set<string>> {
  process.env[FIRST_PASS] = '1';
  try {
    const config: InlineConfig = { configFile, root, mode, logLevel: 'silent', build: { write: false } };
    const result = await build(config);
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const chunks = outputs.flatMap((output) =>
      output.output.filter((item): item is Chunk => item.type === 'chunk'),
    );
    return homeModulesOf(chunks, root, framework);
  } finally {
    delete process.env[FIRST_PASS];
  }
}

/**
 * Writes, beside the manifest, each chunk's modules as the manifest names them (relative to the
 * web app's root): a module merged into the home chunk has no manifest entry of its own, and the
 * route weights (route-weights.ts) look it up here.
 */
export function chunkModules(): Plugin {
  let root = '';
  return {
    name: 'flowbox-chunk-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        modules[output.fileName] = output.moduleIds
          .filter((id) => id.startsWith(root))
          .map((id) => relative(root, id).split(sep).join('/'));
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_MODULES_FILE, source: JSON.stringify(modules) });
    },
  };
}
