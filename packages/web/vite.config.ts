import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import { sourceConditions } from '../../scripts/conditions.mjs';

export default defineConfig({
  // @flowbox/shared from its sources, not its build (docs/decisions.md, "Built packages").
  resolve: {
    ...sourceConditions.resolve,
    alias: {
      'use-sync-external-store/shim': fileURLToPath(
        new URL('./build/use-sync-external-store-shim.ts', import.meta.url),
      ),
    },
  },
  plugins: [react(), tailwindcss(), precompress()],
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
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|i18next|react-i18next|use-sync-external-store|@tanstack[\\/](query-core|react-query)|js-cookie)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/v1': { target: 'http://localhost:8080', changeOrigin: true } },
  },
});
