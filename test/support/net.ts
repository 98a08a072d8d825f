import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A free port on 127.0.0.1, held by a placeholder until `release()`: a server that boots for a while before it
 * listens keeps its port from being handed to anything else (an outgoing connection's ephemeral port) meanwhile.
 */
export function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const placeholder = createServer();
    placeholder.unref();
    placeholder.on('error', reject);
    placeholder.listen(0, '127.0.0.1', () => {
      const address = placeholder.address();
      if (typeof address !== 'object' || !address) return reject(new Error('no port'));
      resolve({ port: address.port, release: () => new Promise<void>((closed) => placeholder.close(() => closed())) });
    });
  });
}

/** A port free on 127.0.0.1 now (for a server that listens on it at once). */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/** A TCP relay to a server, which a test can cut off (as a network failure would) and reconnect. */
export interface CuttableLink {
  /** The relay's port on 127.0.0.1. */
  port: number;
  /** Drops every open connection and refuses new ones. */
  cut(): void;
  /** Accepts and relays connections again. */
  reconnect(): void;
  close(): Promise<void>;
}

/** `target`: a TCP address, or a Unix-domain socket's path. */
export async function cuttableLink(target: { host: string; port: number } | { path: string }): Promise<CuttableLink> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(target);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    reconnect: () => {
      cut = false;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
