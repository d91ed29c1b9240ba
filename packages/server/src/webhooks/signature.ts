import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

/** A webhook's secret: `whsec_` and 32 random bytes in base64url (docs/webhooks.md "Signature"). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Flowbox-Signature` header of a request (docs/webhooks.md): `t=<unix seconds>,v1=<hex
 * HMAC-SHA256>` of `"<t>.<body>"` keyed with the whole secret, as Stripe signs. The time inside
 * what is signed lets a receiver refuse a replayed request, and is checked before the body is read.
 */
export function webhookSignature(secret: string, unixS: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixS}.${body}`).digest('hex');
  return `t=${unixS},v1=${mac}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Addresses a webhook may never name outside tests: the server's own machine and private
 * networks, given as such (a name resolving there is not looked up: docs/webhooks.md "Addresses").
 */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(host) === 6)
    return (
      host === '::' ||
      host === '::1' ||
      /^f[cd]/.test(host) ||
      /^fe[89ab]/.test(host) ||
      host.startsWith('::ffff:')
    );
  return false;
}

/**
 * Whether a webhook may name this address: https to a public host; in the server's own tests
 * (`webhookTestEndpoints`), http too and any host.
 */
export function webhookUrlAccepted(url: string, testEndpoints: boolean): boolean {
  const parsed = URL.parse(url);
  if (!parsed) return false;
  if (testEndpoints) return ['http:', 'https:'].includes(parsed.protocol);
  return parsed.protocol === 'https:' && !isPrivateHost(parsed.hostname);
}

/** Whether a request may go there: an address it accepts, and in tests on loopback only. */
export function webhookUrlSendable(url: string, testEndpoints: boolean): boolean {
  if (!webhookUrlAccepted(url, testEndpoints)) return false;
  return !testEndpoints || LOOPBACK.has(new URL(url).hostname);
}
