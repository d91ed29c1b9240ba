import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A customer's receiver in the tests (docs/webhooks.md "Tests"): a plain node:http server on
 * loopback that checks each request's signature itself, with node:crypto and the secret it was
 * given, as docs/webhooks.md tells a receiver to: it shares no code with the server's signing.
 */

export type ReceivedRequest = {
  headers: IncomingHttpHeaders;
  body: string;
  /** The signature checked against the secret, and its time within five minutes of `now`. */
  verified: boolean;
  payload: {
    id: string;
    type: string;
    created_at: string;
    customer_id: string;
    data: Record<string, unknown>;
  };
};

/** docs/webhooks.md's receiver check: `t=…,v1=…`, the HMAC of "t.body", t within 5 minutes. */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  nowS: number,
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** The status of each next answer, in order; 200 once they are used up. */
  readonly answers: number[] = [];
  secret = '';
  private server: Server | undefined;
  port = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/flowbox`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const header = request.headers['flowbox-signature'];
        this.requests.push({
          headers: request.headers,
          body,
          verified: verifySignature(
            typeof header === 'string' ? header : undefined,
            body,
            this.secret,
            Math.floor(this.now().getTime() / 1000),
          ),
          payload: JSON.parse(body) as ReceivedRequest['payload'],
        });
        response.writeHead(this.answers.shift() ?? 200, { 'content-type': 'text/plain' });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
