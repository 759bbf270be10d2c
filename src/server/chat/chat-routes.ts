import { HiddenChatMessageIds } from '../../shared/chat.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChatHistoryQuery, ChatMessage, ChatMessageInput, ChatMessageList } from '../../shared/chat.js';
import { requireAnyUser } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import { serveTopic } from '../live/live-route.js';
import { listMessagesBefore } from './chat-queries.js';
import { postMessage } from './chat-service.js';
import { CHAT_SIGN_IN, chatHiddenTopic, chatTopic } from './chat-topic.js';

/**
 * The chat room: the live latest page, older pages on request, the live ids of messages operators hid, and posting
 * a message.
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/chat',
    {
      config: {
        doc: {
          summary: "The chat room's latest messages",
          cookie: 'any',
          stream: true,
          responses: { 200: ChatMessageList },
        },
      },
    },
    serveTopic(chatTopic),
  );
  app.get(
    '/api/chat/hidden',
    {
      config: {
        doc: {
          summary:
            'The ids of the chat messages operators hid or that went with a deleted account, lately (an open chat drops them)',
          cookie: 'any',
          stream: true,
          responses: { 200: HiddenChatMessageIds },
        },
      },
    },
    serveTopic(chatHiddenTopic),
  );

  app.get(
    '/api/chat/history',
    {
      config: { doc: { summary: 'Older chat messages', cookie: 'any' } },
      schema: { querystring: ChatHistoryQuery, response: { 200: ChatMessageList } },
    },
    async (request, reply) => {
      await requireAnyUser(request, CHAT_SIGN_IN);
      const messages = await listMessagesBefore(app.db, request.query.before);
      if (!messages) throw notFound('No message with this id');
      return reply.header('cache-control', 'no-store').send(messages);
    },
  );

  app.post(
    '/api/chat',
    {
      config: { doc: { summary: 'Say something in the chat (5 messages in 10 s)', cookie: 'any' } },
      schema: { body: ChatMessageInput, response: { 201: ChatMessage } },
    },
    async (request, reply) => {
      const sender = await requireAnyUser(request, CHAT_SIGN_IN);
      const message = await postMessage(app, sender, request.body.text);
      return reply.status(201).send(message);
    },
  );
};
