import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChatHistoryQuery, ChatMessage, ChatMessageInput, ChatMessageList } from '../../shared/chat.js';
import { currentUser } from '../auth/sessions.js';
import type { User } from '../auth/users.js';
import { notFound, unauthorized } from '../lib/errors.js';
import { sendLive } from '../live/live-route.js';
import { topics } from '../live/topics.js';
import { listLatestMessages, listMessagesBefore } from './chat-queries.js';
import { postMessage } from './chat-service.js';

/** Either identity may chat: the customer's if signed in as one, else the kitchen owner's; else a 401. */
export async function requireChatUser(request: FastifyRequest): Promise<User> {
  const user = (await currentUser(request, 'customer')) ?? (await currentUser(request, 'kitchen'));
  if (!user) throw unauthorized('Please sign in to chat');
  return user;
}

/** The chat room: the live latest page, older pages on request, and posting a message. */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/chat', async (request, reply) => {
    await requireChatUser(request);
    await sendLive(request, reply, app.hub, topics.chat(), () => listLatestMessages(app.db));
  });

  app.get(
    '/api/chat/history',
    { schema: { querystring: ChatHistoryQuery, response: { 200: ChatMessageList } } },
    async (request, reply) => {
      await requireChatUser(request);
      const messages = await listMessagesBefore(app.db, request.query.before);
      if (!messages) throw notFound('No message with this id');
      return reply.header('cache-control', 'no-store').send(messages);
    },
  );

  app.post(
    '/api/chat',
    { schema: { body: ChatMessageInput, response: { 201: ChatMessage } } },
    async (request, reply) => {
      const sender = await requireChatUser(request);
      const message = await postMessage(app, sender, request.body.text);
      return reply.status(201).send(message);
    },
  );
};
