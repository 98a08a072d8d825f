import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { receiveComment } from './incoming.js';

/** Comments on the accounts' posts: kept from the platforms' webhooks, listed from the store, replied to, hidden, deleted. */
export const comments = defineArea({
  name: 'comments',
  contractArea: 'Messaging',
  handlers,
  tables: ['comments', 'comment_backfills'],
  incoming: { comment: oneAtATime(receiveComment) },
});
