// A small round-robin reverse proxy (node:http only): the compose topology's proxy (compose.yaml,
// Caddy) on a machine without containers, for the production smoke test
// (packages/server/src/deploy/production.deploy.test.ts) and for trying two instances by hand:
//
//   PROXY_PORT=8080 PROXY_UPSTREAMS=http://127.0.0.1:8081,http://127.0.0.1:8082 node scripts/proxy.mjs
//
// Each request goes to the next upstream in turn; a GET or HEAD that one refuses (it is down) goes
// to the next one. Bodies stream both ways, so the live event stream works. Every
// answer says which upstream gave it in `X-Flowbox-Upstream` (its index in PROXY_UPSTREAMS).
// Not a production proxy: no TLS, no health checks, no timeouts; use Caddy or nginx (docs/operations.md).
import { createServer, request } from 'node:http';

/** Starts the proxy; resolves with its port once it listens. */
export function startProxy({ port = 0, host = '127.0.0.1', upstreams }) {
  const targets = upstreams.map((u) => new URL(u));
  let next = 0;
  const server = createServer((req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const first = next;
    next = (next + 1) % targets.length;
    const forward = (attempt) => {
      const index = (first + attempt) % targets.length;
      const target = targets[index];
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: {
            ...req.headers,
            'x-forwarded-for': [req.headers['x-forwarded-for'], req.socket.remoteAddress]
              .filter(Boolean)
              .join(', '),
            'x-forwarded-proto': 'http',
            'x-forwarded-host': req.headers.host ?? '',
          },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-flowbox-upstream': String(index) });
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        // A request without a body (GET, HEAD) can go to the next upstream when this one is down.
        if (error.code === 'ECONNREFUSED' && attempt + 1 < targets.length && !hasBody) {
          forward(attempt + 1);
        } else if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway\n');
        } else res.destroy();
      });
      if (hasBody) req.pipe(upstream);
      else upstream.end();
    };
    forward(0);
  });
  return new Promise((resolve) =>
    server.listen(port, host, () => resolve({ port: server.address().port, close: () => server.close() })),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const upstreams = (process.env.PROXY_UPSTREAMS ?? '').split(',').filter(Boolean);
  if (!upstreams.length) {
    console.error('PROXY_UPSTREAMS must list the instances: http://127.0.0.1:8081,http://127.0.0.1:8082');
    process.exit(1);
  }
  const proxy = await startProxy({
    port: Number(process.env.PROXY_PORT ?? 8080),
    host: process.env.PROXY_HOST ?? '127.0.0.1',
    upstreams,
  });
  console.log(`Proxy on http://127.0.0.1:${proxy.port} to ${upstreams.join(', ')}`);
  const stop = () => {
    proxy.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
