import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestSessionHashes } from '../auth/sessions.js';
import type { LiveHub } from './hub.js';

export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/**
 * Answers a live list: as JSON for a plain GET, or as a server-sent event stream (snapshot, then one per change)
 * when the client asks for text/event-stream, as EventSource does. The caller has already authorised the request.
 */
export async function sendLive(
  request: FastifyRequest,
  reply: FastifyReply,
  hub: LiveHub,
  topic: string,
  load: () => Promise<unknown>,
): Promise<void> {
  if (!wantsEventStream(request)) {
    const json = await hub.read(topic, load);
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(json);
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  // What EventSource waits before it retries a dropped connection by itself. Our web app reopens streams itself
  // (with backoff, and also after a non-200 answer or a silence: src/web/live/keep-stream-open.ts).
  res.write('retry: 1500\n\n');
  const unsubscribe = hub.subscribe(topic, load, res, requestSessionHashes(request));
  request.raw.socket.setTimeout(0);
  res.on('close', unsubscribe);
}
