import { closed, type ControlBodies, integer, strictControl, tagged, text } from '../control-schema.js';
import { DEMO_BOT_TOKEN } from './platform.js';

/** The bodies of the bot platform's people's controls. */
export const BOTCHAT_CONTROLS: ControlBodies = {
  'POST /_sandbox/botchat/messages': closed(
    {
      token: text('the bot the person writes to'),
      text: { type: 'string' },
      media: { enum: ['photo', 'video', 'voice', 'document', 'sticker'] },
      location: { type: 'object', properties: { latitude: { type: 'number' }, longitude: { type: 'number' } } },
      from: { type: 'object', properties: { id: { type: 'integer' }, firstName: { type: 'string' }, username: { type: 'string' } } },
    },
    ['token'],
    { token: DEMO_BOT_TOKEN, text: 'Are you open today?' },
  ),
  'POST /_sandbox/botchat/bots': closed(
    { firstName: text("the bot's name"), username: { type: 'string', pattern: '^[A-Za-z0-9_]{5,32}$' } },
    [],
    { firstName: 'Acme Coffee Orders', username: 'acme_orders_bot' },
  ),
  'POST /_sandbox/botchat/revoke': closed({ token: text('the bot whose token its owner revokes') }, ['token'], { token: DEMO_BOT_TOKEN }),
  'POST /_sandbox/botchat/blocks': closed(
    {
      token: text('the bot'),
      userId: integer('the person who blocks it (their chat id)', 1),
      blocked: { type: 'boolean', description: 'false unblocks; true by default' },
    },
    ['token', 'userId'],
    { token: DEMO_BOT_TOKEN, userId: 4242, blocked: true },
  ),
  'POST /_sandbox/botchat/channels': closed(
    { username: { type: 'string', pattern: '^@?[A-Za-z0-9_]{4,32}$', description: 'the channel the bots may post to' } },
    ['username'],
    { username: '@acme_news' },
  ),
  'POST /_sandbox/botchat/faults': closed(
    {
      token: text('the bot whose next calls meet the faults, in order'),
      faults: {
        type: 'array',
        minItems: 1,
        items: tagged('kind', [
          closed({ kind: { const: 'rate_limited' }, retryAfter: integer('seconds', 1) }, ['kind'], { kind: 'rate_limited' }),
          closed({ kind: { enum: ['server_error', 'hang_after_send', 'lost_answer'] } }, ['kind'], { kind: 'server_error' }),
          closed({ kind: { const: 'bad_request' }, description: text('the error text') }, ['kind', 'description'], {
            kind: 'bad_request',
            description: 'Bad Request: chat not found',
          }),
        ]),
      },
    },
    ['token', 'faults'],
    { token: DEMO_BOT_TOKEN, faults: [{ kind: 'rate_limited', retryAfter: 3 }] },
  ),
  ...strictControl('botchat'),
};
