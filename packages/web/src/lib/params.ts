import { useParams } from 'react-router';

/** A route parameter the route pattern guarantees (paths.ts). */
export function useRequiredParam(name: string): string {
  const value = useParams()[name];
  if (!value) throw new Error(`The route has no :${name} parameter`);
  return value;
}
