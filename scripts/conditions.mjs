// The workspace packages export their TypeScript sources under the "source" condition and their
// build (dist/) otherwise (docs/decisions.md, "Built packages"). Tests, the Vite dev server and
// tsx resolve "source", so they never need a build and always see the current code.
import { defaultClientConditions, defaultServerConditions } from 'vite';

/** Vite/Vitest config fragment: "source" first, then Vite's defaults. */
export const sourceConditions = {
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
};

/** Node flag for processes that run the sources through tsx. */
export const SOURCE_CONDITION_FLAG = '--conditions=source';
