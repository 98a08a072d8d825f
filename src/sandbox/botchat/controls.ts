import { closed, type ControlBodies, text } from '../control-schema.js';
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
};
