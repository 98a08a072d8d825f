import { type Handler, principalOf } from '../../http/handler.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { pageRequest } from '../../lib/pagination.js';
import { writeKey } from '../platform-writes/write-key.js';
import { downloadAttachment } from './attachments.js';
import { sendChatappMessage as sendChatapp } from './chatapp-send.js';
import * as conversations from './conversations.js';
import { type Message, getMessage as readMessage } from './messages.js';
import { type Recipient, sendMessage as send } from './send.js';
import { listChatappTemplates as listTemplates } from './templates.js';

export const listConversations: Handler<'listConversations'> = async (request, services) => ({
  status: 200,
  body: await conversations.listConversations(services, principalOf(request), request.params.id, pageRequest(request.query), request.query),
});

export const getConversation: Handler<'getConversation'> = async (request, services) => ({
  status: 200,
  body: await conversations.getConversation(
    services,
    principalOf(request),
    request.params.id,
    request.params.convId,
    pageRequest(request.query),
  ),
});

export const getMessage: Handler<'getMessage'> = async (request, { db }) => ({
  status: 200,
  body: await readMessage(db, principalOf(request), request.params.id, request.params.messageId),
});

/** The one recipient a send names, or the 400 for naming none or several. */
function recipientOf(body: { conversationId?: string; recipientId?: string; commentId?: string }): Recipient {
  const named = (['conversationId', 'recipientId', 'commentId'] as const).filter((member) => body[member] !== undefined);
  if (named.length !== 1) {
    throw new ValidationFailedError([
      { path: 'body', code: 'recipient', message: 'Name the recipient with exactly one of conversationId, recipientId and commentId.' },
    ]);
  }
  if (body.conversationId !== undefined) return { conversationId: body.conversationId };
  return body.recipientId !== undefined ? { userId: body.recipientId } : { commentId: body.commentId! };
}

export const sendMessage: Handler<'sendMessage'> = async (request, services) => {
  const principal = principalOf(request);
  const { body } = request;
  const recipient = recipientOf(body);
  if (body.text === undefined && body.mediaIds === undefined) {
    throw new ValidationFailedError([{ path: 'body', code: 'content', message: 'Give text, mediaIds or both.' }]);
  }
  const messages = await send(
    services,
    principal,
    request.params.id,
    {
      recipient,
      text: body.text ?? null,
      mediaIds: body.mediaIds ?? [],
      ...(body.messagingTag ? { messagingTag: body.messagingTag } : {}),
    },
    writeKey(request, 'message'),
  );
  return messages.some(pending) ? { status: 202, body: { data: messages } } : { status: 201, body: { data: messages } };
};

/** Queued for the worker holding the account's session (qrchat), which has not sent it yet. */
const pending = (message: Message) => message.status === 'pending';

export const sendChatappMessage: Handler<'sendChatappMessage'> = async (request, services) => {
  const message = await sendChatapp(services, principalOf(request), request.params.id, request.body, writeKey(request, 'message'));
  return pending(message) ? { status: 202, body: message } : { status: 201, body: message };
};

export const listChatappTemplates: Handler<'listChatappTemplates'> = async (request, services) => ({
  status: 200,
  body: await listTemplates(services, principalOf(request), request.params.id, request.query),
});

export const downloadMessageAttachment: Handler<'downloadMessageAttachment'> = async (request, services) => {
  const { id, messageId, index } = request.params;
  const file = await downloadAttachment(services, principalOf(request), id, messageId, Number(index));
  return { status: 200, raw: file.bytes, contentType: file.mimeType ?? 'application/octet-stream' };
};
