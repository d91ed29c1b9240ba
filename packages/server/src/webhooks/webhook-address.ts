import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * Where a webhook may point (docs/webhooks.md "Where a webhook may point"): a customer must not
 * make the server POST into the operator's own network (SSRF). Every address a webhook's host names
 * is checked, the literal one or each one its name resolves to, when it is saved and again before
 * each delivery, which then connects only to the addresses it checked (a name that resolves
 * elsewhere meanwhile, DNS rebinding, is refused, never sent to).
 */

/** A resolved address of a host, as `dns.lookup` with `all` answers it. */
export type ResolvedAddress = { address: string; family: number };

/** Resolves a host name to all its addresses; injected in tests to stand for DNS answers. */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The server's machine, private and shared networks, link-local (the clouds' metadata service at
 * 169.254.169.254), multicast, reserved and unspecified addresses. IPv4 rules also match their
 * `::ffff:` mapped IPv6 forms (BlockList does it); IPv4 written in decimal, hex or octal
 * (`http://2130706433/`) is 127.0.0.1 once the URL is parsed.
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // Unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d.
  ['::', 96],
  // NAT64: an IPv4 address of any network behind the operator's translator.
  ['64:ff9b::', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && !REFUSED.check(address, familyOf(address));
}

function isLoopback(address: string): boolean {
  return isIP(address) !== 0 && LOOPBACK.check(address, familyOf(address));
}

/**
 * The test-only door (`webhookTestEndpoints`, set by the test configuration, never by the
 * environment): a receiver on loopback stands in for the customer's. With it, loopback addresses
 * may be saved besides public ones, and deliveries go to loopback only, never off the machine.
 */
export type WebhookAddressPolicy = { testEndpoints: boolean };

/** Whether a webhook may be saved pointing at this address. */
export function savableAddress(address: string, policy: WebhookAddressPolicy): boolean {
  return isPublicAddress(address) || (policy.testEndpoints && isLoopback(address));
}

/** Whether a delivery may connect to this address. */
export function sendableAddress(address: string, policy: WebhookAddressPolicy): boolean {
  return policy.testEndpoints ? isLoopback(address) : isPublicAddress(address);
}

/** https, or http too through the test-only door; no user name or password. */
export function webhookSchemeAccepted(url: URL, policy: WebhookAddressPolicy): boolean {
  const schemes = policy.testEndpoints ? ['https:', 'http:'] : ['https:'];
  return schemes.includes(url.protocol) && url.username === '' && url.password === '';
}

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** The addresses a URL's host names: itself when a literal, else all those it resolves to. */
export async function addressesOf(url: URL, lookup: LookupAll): Promise<ResolvedAddress[]> {
  const host = hostOf(url);
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family }];
  const addresses = await lookup(host);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  return addresses;
}
