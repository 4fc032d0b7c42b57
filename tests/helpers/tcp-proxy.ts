import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** cut every open connection and refuse new ones (the target looks down) */
  cut(): void;
  /** let connections through again */
  restore(): void;
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target`, so a test can make a service (e.g. PostgreSQL)
 * unreachable and reachable again without touching the real server.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const done = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    get connections() {
      return open.size / 2;
    },
    close() {
      for (const s of open) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
