import dns from 'node:dns';
import net from 'node:net';

/**
 * The DNS TXT look-up of the domain proof (decision 39-03). SSO_DNS_RESOLVER names the servers
 * (`host:port`, comma-separated, IP addresses: node's resolver takes no names), so tests and
 * split-horizon networks can point it at their own; unset, the system's resolver answers.
 */
export function resolverServers(setting: string | undefined): string[] {
  if (!setting) return [];
  return setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
      const [host, port] = v6 ? [v6[1]!, v6[2]] : s.includes(':') && net.isIPv6(s) ? [s, undefined] : (s.split(':') as [string, string | undefined]);
      if (!net.isIP(host)) throw new Error(`SSO_DNS_RESOLVER: ${s} is not an IP address (host:port)`);
      const p = port ? Number(port) : 53;
      if (!Number.isInteger(p) || p < 1 || p > 65535) throw new Error(`SSO_DNS_RESOLVER: ${s} has no valid port`);
      return net.isIPv6(host) ? `[${host}]:${p}` : `${host}:${p}`;
    });
}

/** Every TXT string published at `name` (the chunks of one record joined); none when the name does not exist. */
export async function txtRecords(name: string, setting: string | undefined): Promise<string[]> {
  const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 2 });
  const servers = resolverServers(setting);
  if (servers.length) resolver.setServers(servers);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw e;
  }
}
