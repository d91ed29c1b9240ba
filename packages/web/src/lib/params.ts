import { useCallback, useState } from 'react';
import { useParams, useSearchParams, type NavigateOptions } from 'react-router';

/** A route parameter the route pattern guarantees (paths.ts). */
export function useRequiredParam(name: string): string {
  const value = useParams()[name];
  if (!value) throw new Error(`The route has no :${name} parameter`);
  return value;
}

/** A change of the address's query: a value sets its key, undefined takes it away; a query replaces all. */
export type QueryPatch = Record<string, string | undefined> | URLSearchParams;

/**
 * The query each change writes. React Router hands setSearchParams's updater the query of the last
 * render: two changes before the next render (a search box's pause ending just after Enter applied
 * another box) started from the same query, and the second wrote the first away. A change made
 * while the render still shows the query the last one started from starts from what that one wrote;
 * once the render shows anything else (that write, a link, the back button), from the render.
 */
export function queryWriter(): (rendered: URLSearchParams, patch: QueryPatch) => URLSearchParams {
  let written: { from: string; to: URLSearchParams } | null = null;
  return (rendered, patch) => {
    const base = written && written.from === rendered.toString() ? written.to : rendered;
    const next = new URLSearchParams(patch instanceof URLSearchParams ? patch : base);
    if (!(patch instanceof URLSearchParams))
      for (const [key, value] of Object.entries(patch)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
    written = { from: rendered.toString(), to: next };
    return new URLSearchParams(next);
  };
}

/** The address's query, and its changes (replacing the history entry unless told otherwise; queryWriter). */
export function useAddressQuery(): [URLSearchParams, (patch: QueryPatch, options?: NavigateOptions) => void] {
  const [params, setParams] = useSearchParams();
  const [write] = useState(queryWriter);
  const change = useCallback(
    (patch: QueryPatch, options?: NavigateOptions) =>
      setParams((rendered) => write(rendered, patch), { replace: true, ...options }),
    [setParams, write],
  );
  return [params, change];
}
