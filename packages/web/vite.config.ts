import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { chunkModules, firstPassHomeModules, isFirstPass } from './build/home-chunk.ts';
import { precompress } from './build/precompress.ts';
import { sourceConditions } from '../../scripts/conditions.mjs';

/** What every page needs before it shows, the sign-in page included (issue 16). */
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|react-router|scheduler|i18next|react-i18next|use-sync-external-store|@tanstack[\\/](query-core|react-query)|js-cookie)[\\/]/;

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(async ({ command, mode }) => {
  // The signed-in home's modules in one chunk, found by a first pass (build/home-chunk.ts).
  const home =
    command === 'build' && !isFirstPass()
      ? await firstPassHomeModules(fileURLToPath(import.meta.url), root, mode, FRAMEWORK)
      : null;
  return {
    // @flowbox/shared from its sources, not its build (docs/decisions.md, "Built packages").
    resolve: {
      ...sourceConditions.resolve,
      alias: {
        'use-sync-external-store/shim': fileURLToPath(
          new URL('./build/use-sync-external-store-shim.ts', import.meta.url),
        ),
        // The part of i18next and react-i18next the app uses, a twentieth of their weight (issue 16:
        // /login's budget); src/lib/i18n/lite.test.ts holds it to i18next's answers.
        i18next: fileURLToPath(new URL('./src/lib/i18n/lite.ts', import.meta.url)),
        'react-i18next': fileURLToPath(new URL('./src/lib/i18n/lite-react.ts', import.meta.url)),
      },
    },
    plugins: [react(), tailwindcss(), chunkModules(), ...(isFirstPass() ? [] : [precompress()])],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // dist/.vite/manifest.json: the chunk graph the route budget test and `npm run bench web` read.
      manifest: true,
      // Every browser the app supports knows <link rel=modulepreload>; the polyfill would cost the first screen.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        output: {
          // Libraries change less often than the app: separate files stay cached across releases.
          codeSplitting: {
            groups: [
              // ECharts is loaded only with the first consumption graph (features/consumption, React.lazy).
              { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/ },
              // What every page needs before it shows, the sign-in page included (issue 16).
              {
                name: 'framework',
                test: FRAMEWORK,
              },
              ...(home ? [{ name: 'home', test: (id: string) => home.has(id) }] : []),
            ],
            // The home group takes the modules it names, not what they import (its default): the
            // entry's modules would otherwise move into it, and /login would load it.
            includeDependenciesRecursively: !home,
          },
        },
      },
    },
    server: {
      port: 5173,
      proxy: { '/v1': { target: 'http://localhost:8080', changeOrigin: true } },
    },
  };
});
