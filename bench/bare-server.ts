// The baseline: a bare Fastify server answering a hello route, measured with the same load as the app.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ type: 'ready' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
