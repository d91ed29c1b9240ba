import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { notFound } from '../errors.ts';
import type { App } from './types.ts';

/** Vite names every built asset by its content hash, so a browser may keep them for good. */
const HASHED_ASSETS = '/assets/';
/**
 * Files whose name stays while their content changes: the service worker (a browser checks it on
 * each visit, docs/push.md), the installed app's manifest and the offline page it caches.
 */
const REVALIDATED = new Set(['sw.js', 'manifest.webmanifest', 'offline.html', 'offline.js', 'offline.css']);

/**
 * The built web app: its static files, and index.html (with its Content-Security-Policy, `csp`)
 * for any other path that is not the API's (client-side routes). Anything else not found is the
 * API's 404.
 */
export async function serveWebApp(app: App, webDist: string, csp: string): Promise<void> {
  const hasWeb = existsSync(join(webDist, 'index.html'));
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .type('text/html')
      .sendFile('index.html', { cacheControl: false });
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      // The build writes brotli and gzip copies of its text files (packages/web/precompress.ts):
      // each is sent to a browser that accepts it, with `Vary: Accept-Encoding`.
      preCompressed: true,
      // Files are looked up per request rather than listed at start, so a web build made while the
      // server runs (npm start rebuilds, a deploy) is served at once instead of 404s for new assets.
      wildcard: true,
      setHeaders: (reply, path) => {
        if (path.startsWith(join(webDist, HASHED_ASSETS)))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        // A file's compressed copy (`.br`, `.gz`) is answered under the file's own name.
        const name = relative(webDist, path).replace(/\.(br|gz)$/, '');
        if (REVALIDATED.has(name)) reply.header('cache-control', 'no-cache');
        // The offline page is a page of the app: the same policy as index.html.
        if (name.endsWith('.html')) reply.header('content-security-policy', csp);
      },
    });
    // The build's root is a directory, which the static handler refuses to list.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/v1' || request.url.startsWith('/v1/');
    // A missing script or style is a 404, never the app's HTML under a script's name.
    const isAsset = request.url.startsWith(HASHED_ASSETS);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!isApi && !isAsset && hasWeb && isRead) return sendIndex(reply);
    return reply.send(notFound());
  });
}
