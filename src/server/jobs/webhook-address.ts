import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may go (issue 23, decision 23-02): https only (http with WEBHOOK_ALLOW_HTTP for
 * local development), and never to a loopback, private, link-local, CGNAT, unspecified or cloud
 * metadata address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS, which only tests and local development
 * set). The name is resolved at every delivery, every address it answers is checked, and the
 * connection goes to the address that was checked (a second resolution cannot swap it).
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

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (fd00:ec2::254 metadata is in it)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net6, prefix, 'ipv6');

/** True when a webhook must not connect to `ip` (IPv4-mapped IPv6 is checked as the IPv4 inside). */
export function isForbiddenAddress(ip: string): boolean {
  const kind = net.isIP(ip);
  if (kind === 4) return blocked.check(ip, 'ipv4');
  if (kind !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d, ::ffff:7f00:1, or written out in full): check the IPv4 inside
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(.+)$/i.exec(ip);
  if (mapped) {
    const tail = mapped[1];
    if (net.isIP(tail) === 4) return blocked.check(tail, 'ipv4');
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
    if (hex) {
      const hi = parseInt(hex[1], 16);
      const lo = parseInt(hex[2], 16);
      return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
  }
  return blocked.check(ip, 'ipv6');
}

export type UrlCheck =
  | { ok: true; url: URL; address: ResolvedAddress | null }
  | { ok: false; kind: 'invalid' | 'refused' | 'unresolved'; message: string };

/** The host of a URL without IPv6 brackets. */
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
 * Checks a URL and resolves its host: every address must be allowed. The answer's `address` is
 * the one to connect to (null: an IP literal, connect to it as written).
 */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<UrlCheck> {
  const form = checkUrlForm(raw, policy);
  if (!form.ok) return { ok: false, kind: 'invalid', message: form.message };
  const host = hostOf(form.url);
  const refused = { ok: false as const, kind: 'refused' as const, message: 'This address is not allowed: it points to a private, loopback, link-local or metadata network' };
  if (net.isIP(host)) {
    if (!policy.allowPrivate && isForbiddenAddress(host)) return refused;
    return { ok: true, url: form.url, address: null };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await webhookDns.lookup(host);
  } catch (err) {
    return { ok: false, kind: 'unresolved', message: `Cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}` };
  }
  if (addresses.length === 0) return { ok: false, kind: 'unresolved', message: `Cannot resolve ${host}` };
  if (!policy.allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) return refused;
  return { ok: true, url: form.url, address: addresses[0] };
}
