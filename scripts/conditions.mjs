// The workspace packages export their TypeScript sources under the "source" condition and their
// build (dist/) otherwise (docs/decisions.md, "Built packages"). Tests, the Vite dev server and
// tsx resolve "source", so they never need a build and always see the current code.
import { defaultClientConditions, defaultServerConditions } from 'vite';

// Not "module": Node itself loads the server's dependencies (Vitest externalises them), and some
// packages' "module" builds are for bundlers only (@opentelemetry/api's has extensionless imports).
const server = {
  resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] },
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
