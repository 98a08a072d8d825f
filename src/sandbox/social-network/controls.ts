import { closed, type ControlBodies, text } from '../control-schema.js';
import { DEMO_PAGES } from './demo.js';

const PAGE = DEMO_PAGES[0]!.id;
const person = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] };

/** The bodies of the social network's people's controls. */
export const SOCIAL_NETWORK_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_network/page-posts': closed(
    {
      pageId: text('the page that posts in its own app'),
      message: { type: 'string' },
      reactions: { type: 'integer', minimum: 0 },
      shares: { type: 'integer', minimum: 0 },
      comments: { type: 'array', items: { type: 'string' } },
    },
    ['pageId'],
    { pageId: PAGE, message: 'The autumn menu is out.' },
  ),
  'POST /_sandbox/social_network/comments': closed(
    { postId: text("the page post's id"), parentId: { type: 'string' }, text: { type: 'string' }, from: person },
    ['postId'],
    { postId: `${PAGE}_…`, text: 'What is the price?', from: { id: '7300000000000001', name: 'Nora' } },
  ),
};
