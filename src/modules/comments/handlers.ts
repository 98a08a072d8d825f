import { type Handler, principalOf } from '../../http/handler.js';
import { newId } from '../../lib/ids.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { pageRequest } from '../../lib/pagination.js';
import * as actions from './actions.js';
import * as list from './list.js';

/** The ledger key of a write: the request's `Idempotency-Key` (a retry is the same write), else one of its own. */
function ledgerKey(request: { koa: { get(name: string): string } }, kind: string): string {
  const key = request.koa.get('Idempotency-Key');
  return key ? `${kind}:idem:${key}` : `${kind}:${newId('req')}`;
}

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
    body: await actions.reply(services, principalOf(request), request.params.id, { target, text, mediaId }, ledgerKey(request, 'reply')),
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
    ledgerKey(request, 'hide'),
  ),
});

export const deleteComment: Handler<'deleteComment'> = async (request, services) => {
  await actions.remove(services, principalOf(request), request.params.id, request.params.commentId);
  return { status: 204, body: undefined };
};
