import { createHmac, randomBytes } from 'node:crypto';

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
