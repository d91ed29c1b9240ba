import { queryOptions, useQuery, type QueryCache } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { apiPathOfImage } from './images.ts';

const IMAGES_KEY = 'images';
const watchedCaches = new WeakSet<QueryCache>();

/** A blob: URL lives as long as its cache entry: released when the cache drops an unused image. */
function releaseImagesWhenDropped(cache: QueryCache): void {
  if (watchedCaches.has(cache)) return;
  watchedCaches.add(cache);
  cache.subscribe((event) => {
    const data: unknown = event.query.state.data;
    if (event.type === 'removed' && event.query.queryKey[0] === IMAGES_KEY && typeof data === 'string')
      URL.revokeObjectURL(data);
  });
}

/**
 * Images need the Bearer token (docs/decisions.md, Images), so a bare <img src> cannot load them:
 * the bytes are fetched with it and shown through a blob: URL.
 */
export const imageQueryOptions = (url: string) =>
  queryOptions({
    queryKey: [IMAGES_KEY, url],
    queryFn: async ({ client }) => {
      releaseImagesWhenDropped(client.getQueryCache());
      return URL.createObjectURL(await api.blob(apiPathOfImage(url)));
    },
    // A stored image never changes: a replacement gets a new URL.
    staleTime: Infinity,
  });

/** The blob: URL of the image behind a record's URL path; disabled when there is none. */
export const useImage = (url: string | null) =>
  useQuery({ ...imageQueryOptions(url ?? ''), enabled: Boolean(url) });
