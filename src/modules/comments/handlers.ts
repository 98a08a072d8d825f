import { type Handler, principalOf } from '../../http/handler.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { pageRequest } from '../../lib/pagination.js';
import { writeKey } from '../platform-writes/write-key.js';
import * as actions from './actions.js';
import * as list from './list.js';

export const listComments: Handler<'listComments'> = async (request, services) => ({
  status: 200,
  body: await list.listComments(services, principalOf(request), request.params.id, pageRequest(request.query), request.query),
});

export const replyToComment: Handler<'replyToComment'> = async (request, services) => {
  const { commentId, postId, text, mediaId } = request.body;
  if ((commentId === undefined) === (postId === undefined)) {
    throw new ValidationFailedError([
      { path: 'body/commentId', code: 'oneOf', message: 'give exactly one of commentId (a reply) and postId (a comment on a post)' },
    ]);
  }
  const target = commentId !== undefined ? { commentId } : { postId: postId! };
  return {
    status: 201,
    body: await actions.reply(services, principalOf(request), request.params.id, { target, text, mediaId }, writeKey(request, 'reply')),
  };
};

export const hideComment: Handler<'hideComment'> = async (request, services) => ({
  status: 200,
  body: await actions.setHidden(
    services,
    principalOf(request),
    request.params.id,
    request.body.commentId,
    request.body.hidden,
    writeKey(request, 'hide'),
  ),
});

export const deleteComment: Handler<'deleteComment'> = async (request, services) => {
  await actions.remove(services, principalOf(request), request.params.id, request.params.commentId);
  return { status: 204, body: undefined };
};
