// The workspace packages export their TypeScript sources under the "source" condition and their
// build (dist/) otherwise (docs/decisions.md, "Built packages"). Tests, the Vite dev server and
// tsx resolve "source", so they never need a build and always see the current code.
import { defaultClientConditions, defaultServerConditions } from 'vite';

/*
 * Vitest hands these conditions to Node itself (`--conditions`) in its test processes, where they
 * also steer `require`. Vite's "module" condition is a bundlers' one that Node never applies: with it,
 * prom-client's require('@opentelemetry/api') loaded that package's "module" build, whose
 * extensionless imports Node cannot resolve, and every test loading the app failed. Tests resolve as
 * the product does in Node.
 */
const server = {
  resolve: {
    conditions: ['source', ...defaultServerConditions.filter((condition) => condition !== 'module')],
  },
};

/**
 * Vite/Vitest config fragment: "source" first, then Vite's defaults. Vitest runs a config's global
 * setup in an environment of its own (`__vitest__`), which the `ssr` options do not reach: without
 * it, the browser suite's setup resolved the packages' builds, and failed on a clone never built.
 */
export const sourceConditions = {
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: server,
  environments: { ssr: server, __vitest__: server },
};

/** Node flag for processes that run the sources through tsx. */
export const SOURCE_CONDITION_FLAG = '--conditions=source';
