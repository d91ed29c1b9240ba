import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * What stands in for a browser and its vendor's push service in the tests (docs/push.md "Tests"):
 * the browser's keys made as a browser makes them, a push service on loopback that takes the
 * server's requests, and the browser's side of RFC 8291 to read what it was sent. Written from the
 * RFCs with node:crypto alone, so that they check web-push rather than repeat it.
 */

/** A browser's push subscription: its P-256 key pair and authentication secret (RFC 8291 §2). */
export type TestBrowser = {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
  /** What the browser's PushSubscription.toJSON() gives the web app to send. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
};

export function testBrowser(endpoint: string): TestBrowser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    endpoint,
    subscription: {
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * The browser's decryption of an `aes128gcm` body (RFC 8188 §2, RFC 8291 §3.3–3.4): the header
 * (salt, record size, the sender's public key), the keys derived with the browser's secret, and
 * each record opened and unpadded.
 */
export function decryptPush(browser: TestBrowser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyLength = body[20]!;
  const senderKey = body.subarray(21, 21 + keyLength);
  const ciphertext = body.subarray(21 + keyLength);
  const secret = browser.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    browser.ecdh.getPublicKey(),
    senderKey,
    Buffer.from([1]),
  ]);
  const ikm = hmac(hmac(browser.auth, secret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const records: Buffer[] = [];
  for (let at = 0, seq = 0; at < ciphertext.length; at += recordSize, seq++) {
    const record = ciphertext.subarray(at, at + recordSize);
    const iv = Buffer.from(nonce);
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, iv);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Padding: the delimiter (2 for the last record, 1 before) followed by zeros.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    records.push(plain.subarray(0, end));
  }
  return Buffer.concat(records).toString('utf8');
}

/** The VAPID header of a request (RFC 8292 §3): `vapid t=<JWT>, k=<public key>`, the JWT checked. */
export function readVapid(authorization: string | undefined): {
  publicKey: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  valid: boolean;
} {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, publicKey] = match as unknown as [string, string, string];
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const decode = (part: string) =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { publicKey, header: decode(header), claims: decode(claims), valid };
}

/** A request the service took; `at`: when its body had arrived (performance.now(), for benches). */
export type PushRequest = { path: string; headers: IncomingHttpHeaders; body: Buffer; at: number };

/**
 * A push service on loopback: it keeps every request and answers each path with the status given
 * for it (201 Created by default, as the vendors' services do).
 */
export class TestPushService {
  readonly requests: PushRequest[] = [];
  readonly statusOf = new Map<string, number>();
  private server: Server | undefined;
  private origin = '';

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.requests.push({
          path,
          headers: request.headers,
          body: Buffer.concat(chunks),
          at: performance.now(),
        });
        response.writeHead(this.statusOf.get(path) ?? 201).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  /** A browser's endpoint on this service. */
  endpoint(name: string): string {
    return `${this.origin}/push/${name}`;
  }

  requestsTo(endpoint: string): PushRequest[] {
    const path = new URL(endpoint).pathname;
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }
}
