import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** cut every open connection and refuse new ones (the target looks down) */
  cut(): void;
  /**
   * A silent partition: open connections stay open but no byte moves in either direction, and new
   * connections are accepted but never reach the target. Nobody sees a FIN or a reset.
   */
  blackhole(): void;
  /**
   * Let connections through again after cut() or blackhole(). Connections held by a blackhole go
   * on where they stopped, with the bytes sent meanwhile delivered (like a healed network), or,
   * with `dropHeld`, are closed first so that both sides see them end.
   */
  restore(opts?: { dropHeld?: boolean }): void;
  readonly mode: 'forwarding' | 'cut' | 'blackhole';
  /** connections accepted and not closed yet (held ones included) */
  readonly connections: number;
  close(): Promise<void>;
}

interface Link {
  client: net.Socket;
  /** missing while a connection accepted during a blackhole waits for the network to come back */
  upstream?: net.Socket;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target`, so a test can make a service (e.g. PostgreSQL)
 * unreachable and reachable again without touching the real server.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let mode: TcpProxy['mode'] = 'forwarding';

  const end = (link: Link) => {
    link.client.destroy();
    link.upstream?.destroy();
    links.delete(link);
  };

  /** bytes from `from` go to `to`, except while a blackhole holds them (they wait, unread) */
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => {
          if (mode !== 'blackhole') from.resume();
        });
      }
    });
  };

  const connectUpstream = (link: Link) => {
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', () => end(link)).on('close', () => end(link));
    forward(link.client, upstream);
    forward(upstream, link.client);
  };

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const link: Link = { client };
    links.add(link);
    client.on('error', () => end(link)).on('close', () => end(link));
    if (mode === 'blackhole') {
      // accepted (the kernel did that already) but nothing goes anywhere
      client.pause();
      return;
    }
    connectUpstream(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      mode = 'cut';
      for (const link of [...links]) end(link);
    },
    blackhole() {
      mode = 'blackhole';
      // a paused socket is not read: what the peers send stays in the socket buffers, unanswered
      for (const { client, upstream } of links) {
        client.pause();
        upstream?.pause();
      }
    },
    restore(opts = {}) {
      const wasBlackhole = mode === 'blackhole';
      mode = 'forwarding';
      if (!wasBlackhole) return;
      for (const link of [...links]) {
        if (opts.dropHeld) {
          end(link);
          continue;
        }
        if (!link.upstream) connectUpstream(link);
        link.client.resume();
        link.upstream!.resume();
      }
    },
    get mode() {
      return mode;
    },
    get connections() {
      return links.size;
    },
    close() {
      for (const link of [...links]) end(link);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
