import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

interface Relay {
  client: Socket;
  upstream: Socket;
  /** The connection carries a server-sent event stream (seen in the response's content type). */
  stream: boolean;
  heartbeats: number;
  stalled: boolean;
}

/**
 * A TCP proxy that can make the event streams passing through it go silent while their connections stay open:
 * what a browser sees when a NAT, a load balancer or a suspended laptop drops a long connection without a word.
 */
export async function stallingProxy(target: { port: number }) {
  const relays = new Set<Relay>();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    const relay: Relay = { client, upstream, stream: false, heartbeats: 0, stalled: false };
    relays.add(relay);
    client.on('data', (chunk) => relay.stalled || upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (relay.stalled) return;
      const text = chunk.toString('latin1');
      relay.stream ||= text.includes('text/event-stream');
      relay.heartbeats += text.match(/event: ping/g)?.length ?? 0;
      client.write(chunk);
    });
    const end = () => {
      relays.delete(relay);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const open = () => [...relays].filter((r) => r.stream && !r.stalled);
  return {
    port: (server.address() as AddressInfo).port,
    /** Open event streams. */
    streams: () => open().length,
    /** Open event streams that have carried at least one heartbeat (so their browser knows its interval). */
    streamsWithHeartbeat: () => open().filter((r) => r.heartbeats > 0).length,
    /** Stops relaying anything on every open event stream, without closing its connection. */
    stallStreams(): number {
      const streams = open();
      for (const r of streams) r.stalled = true;
      return streams.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of relays) r.client.destroy();
        server.close(() => resolve());
      }),
  };
}
