import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

/**
 * A local DNS stand-in for the domain proof of team single sign-on (decision 39-03): a UDP server
 * on 127.0.0.1 that answers TXT questions from a table the test fills, NXDOMAIN for the rest.
 * The app asks it through SSO_DNS_RESOLVER=127.0.0.1:<port>.
 */
export interface DnsStandin {
  /** `host:port` for SSO_DNS_RESOLVER */
  address: string;
  /** TXT strings per lower-case name */
  txt: Map<string, string[]>;
  questions: string[];
  close(): Promise<void>;
}

export async function startDnsStandin(): Promise<DnsStandin> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  const questions: string[] = [];
  socket.on('message', (msg, rinfo) => {
    let query: packet.Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase().replace(/\.$/, '');
    questions.push(`${q.type} ${name}`);
    const values = q.type === 'TXT' ? txt.get(name) : undefined;
    const known = [...txt.keys()].some((k) => k === name);
    const answer = packet.encode({
      type: 'response',
      id: query.id,
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [q],
      answers: (values ?? []).map((v) => ({ type: 'TXT' as const, name: q.name, ttl: 60, class: 'IN' as const, data: [v] })),
    });
    socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
