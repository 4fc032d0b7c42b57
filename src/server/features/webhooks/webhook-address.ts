import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go (issue 23, decision 23-02; issue 33, decision 33-02): https only (http
 * with WEBHOOK_ALLOW_HTTP for local development), and only to globally routable unicast addresses
 * (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS, which only tests and local development set). The name is
 * resolved once per save and once per delivery, every address it answers is checked, and the
 * connection goes to the address that was checked (a second resolution cannot swap it).
 *
 * An address passes only when all of these hold:
 * - IPv4: outside every special-purpose block below and `ipaddr.js` calls it plain `unicast`;
 * - IPv6: inside global unicast 2000::/3 (or the NAT64 prefix 64:ff9b::/96), outside the blocks
 *   below, and every IPv4 address it carries (IPv4-mapped, -compatible, -translated, NAT64, 6to4,
 *   Teredo server and client) passes as IPv4;
 * - not one of this host's own interface addresses.
 */

export interface AddressPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The resolver used for every check; tests replace `lookup` to answer what a hostile DNS would. */
export const webhookDns = {
  async lookup(host: string): Promise<ResolvedAddress[]> {
    const list = await dns.promises.lookup(host, { all: true, verbatim: true });
    return list.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

/** IPv4 blocks no webhook reaches (IANA special-purpose registry, plus what the issue named). */
const V4_REFUSED = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, 169.254.169.254 metadata
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, 255.255.255.255 broadcast
].map((c) => ipaddr.IPv4.parseCIDR(c));

/** IPv6 blocks refused even where they sit inside 2000::/3 (the rest of the space is refused by that rule). */
const V6_REFUSED = [
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  '2001:2::/48', // benchmarking
  '64:ff9b:1::/48', // local-use NAT64 (its translator is on a private network by definition)
].map((c) => ipaddr.IPv6.parseCIDR(c));
const V6_IETF = ipaddr.IPv6.parseCIDR('2001::/23'); // protocol assignments: only Teredo in it is unwrapped and may pass
const V6_TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');
const V6_GLOBAL = ipaddr.IPv6.parseCIDR('2000::/3');
const V6_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const V6_6TO4 = ipaddr.IPv6.parseCIDR('2002::/16');
/** forms that carry an IPv4 address in their last 32 bits */
const V6_LAST32 = ['::ffff:0:0/96', '::/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((c) => ipaddr.IPv6.parseCIDR(c));

const v4 = (b: number[]) => new ipaddr.IPv4(b);

/** Every IPv4 address an IPv6 address carries (RFC 4291 mapped/compatible, RFC 6145, RFC 6052, 6to4, Teredo). */
export function embeddedIPv4(addr: V6): V4[] {
  const b = addr.toByteArray();
  const out: V4[] = [];
  if (V6_LAST32.some((c) => addr.match(c))) out.push(v4(b.slice(12, 16)));
  if (addr.match(V6_6TO4)) out.push(v4(b.slice(2, 6)));
  if (addr.match(V6_TEREDO)) {
    out.push(v4(b.slice(4, 8))); // the Teredo server
    out.push(v4(b.slice(12, 16).map((x) => x ^ 0xff))); // the client, stored inverted
  }
  return out;
}

/** The host's own addresses (a public one is reachable from outside, but a webhook must not come back in); read at every check. */
function ownAddresses(): Set<string> {
  const set = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      try {
        set.add(ipaddr.process(a.address.replace(/%.*$/, '')).toString());
      } catch {
        // an address the library cannot read: nothing to compare against
      }
    }
  }
  return set;
}

function ipv4Refused(a: V4): boolean {
  return a.range() !== 'unicast' || V4_REFUSED.some((c) => a.match(c)) || ownAddresses().has(a.toString());
}

function ipv6Refused(a: V6): boolean {
  if (a.isIPv4MappedAddress()) return ipv4Refused(a.toIPv4Address());
  if (a.zoneId) return true; // a scoped address names a local link
  if (embeddedIPv4(a).some(ipv4Refused)) return true;
  if (!(a.match(V6_GLOBAL) || a.match(V6_NAT64))) return true;
  if (V6_REFUSED.some((c) => a.match(c))) return true;
  if (a.match(V6_IETF) && !a.match(V6_TEREDO)) return true;
  const range = a.range();
  if (!['unicast', '6to4', 'teredo', 'rfc6052'].includes(range)) return true;
  return ownAddresses().has(a.toString());
}

/**
 * True when a webhook must not connect to `ip`: anything that is not a globally routable unicast
 * address in any spelling (odd IPv4 forms such as `0x7f.1` are read as the address they mean),
 * anything embedding such an address, this host's own addresses, and anything that is not an address.
 */
export function isForbiddenAddress(ip: string): boolean {
  let parsed: V4 | V6;
  try {
    parsed = ipaddr.parse(ip.trim().replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return true;
  }
  return parsed.kind() === 'ipv4' ? ipv4Refused(parsed as V4) : ipv6Refused(parsed as V6);
}

export type UrlCheck =
  | { ok: true; url: URL; address: ResolvedAddress }
  | { ok: false; kind: 'invalid' | 'refused' | 'unresolved'; message: string; detail?: string };

/**
 * The host of a URL without IPv6 brackets. The WHATWG parser has already normalised it: numeric
 * IPv4 in any spelling (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) is dotted decimal here, and
 * IPv6 is compressed, so the checks below see the address the connection would use.
 */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Is the URL's form acceptable (scheme, no credentials)? Cheap, no DNS. */
export function checkUrlForm(raw: string, policy: AddressPolicy): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: policy.allowHttp ? 'Enter an http:// or https:// address' : 'Enter an https:// address' };
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol) || !url.hostname) return { ok: false, message: policy.allowHttp ? 'Enter an http:// or https:// address' : 'Enter an https:// address' };
  if (url.username || url.password) return { ok: false, message: 'Leave the user name and password out of the address' };
  return { ok: true, url };
}

/**
 * Checks a URL and resolves its host once: every address it answers must be allowed. The answer's
 * `address` is the one to connect to (an IP literal is its own address).
 */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<UrlCheck> {
  const form = checkUrlForm(raw, policy);
  if (!form.ok) return { ok: false, kind: 'invalid', message: form.message };
  const host = hostOf(form.url);
  const refused = (detail: string) => ({ ok: false as const, kind: 'refused' as const, message: 'This address is not allowed: it points to a private, loopback, link-local or metadata network', detail });
  const literal = net.isIP(host);
  if (literal) {
    if (!policy.allowPrivate && isForbiddenAddress(host)) return refused(`${host} is not a public address`);
    return { ok: true, url: form.url, address: { address: host, family: literal === 6 ? 6 : 4 } };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await webhookDns.lookup(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
    return { ok: false, kind: 'unresolved', message: `Cannot resolve ${host}`, detail: `${host}: ${code}` };
  }
  if (addresses.length === 0) return { ok: false, kind: 'unresolved', message: `Cannot resolve ${host}`, detail: `${host}: no addresses` };
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) return refused(`${host} resolved to ${bad.address}, not a public address`);
  }
  return { ok: true, url: form.url, address: addresses[0] };
}
