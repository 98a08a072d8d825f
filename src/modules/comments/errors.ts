import { UnprocessableError } from '../../lib/errors.js';

/** 422 `comment_action_refused`: the platform does not let the account do this to the comment; `detail` says why. */
export class CommentActionRefusedError extends UnprocessableError {
  constructor(detail: string) {
    super('comment_action_refused', 'The platform does not allow this on the comment', detail);
  }
}

/** 422 `media_not_found`: the reply's image is not one of the owner's media. */
export class ReplyMediaNotFoundError extends UnprocessableError {
  constructor(mediaId: string) {
    super('media_not_found', 'Media not found', `No media ${mediaId}.`, [
      { path: 'body/mediaId', message: `no media ${mediaId}`, code: 'media_not_found' },
    ]);
  }
}
