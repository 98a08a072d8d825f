import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DEMO_BOT_TOKEN } from './botchat/platform.js';
import { DEMO_ACCESS_TOKEN, DEMO_PHONE_NUMBER_ID, DEMO_WABA_ID } from './chatapp-cloud/demo.js';
import { DEMO_PAGES } from './social-network/demo.js';

type Schema = Record<string, unknown> & { examples: unknown[] };

const text = (description: string) => ({ type: 'string', minLength: 1, description });
const closed = (properties: Record<string, unknown>, required: string[], example: unknown): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  examples: [example],
});

const PAGE = DEMO_PAGES[0]!.id;
const person = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] };

/**
 * The bodies of the people's controls that people call by hand (the README's walks), by `METHOD path` as the
 * router mounts them: the root page shows each with its example, and a body that does not fit is refused with
 * 400 and the reason before the control runs, rather than filled in with defaults.
 */
const BODIES: Record<string, Schema> = {
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

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>(Object.entries(BODIES).map(([route, schema]) => [route, ajv.compile(schema)]));

/** Why a control's body does not fit its schema, in words; undefined when it fits or the control declares none. */
export function bodyRefusal(route: string, body: unknown): string | undefined {
  const validate = validators.get(route);
  if (!validate || validate(body ?? {})) return undefined;
  return (validate.errors ?? [])
    .map((error) => {
      const member = `body${error.instancePath.replace(/\//g, '.')}`;
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      return extra ? `${member} has an unknown member ${extra}` : `${member} ${error.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** The example body of a control, as JSON, for the root page. */
export function exampleBody(route: string): string | undefined {
  const schema = BODIES[route];
  return schema ? JSON.stringify(schema.examples[0]) : undefined;
}

/** The credentials the sandbox starts with, so that a first connection needs nothing made by hand. */
export const DEMO_CREDENTIALS = [
  `botchat bot token: ${DEMO_BOT_TOKEN}`,
  `chatapp-cloud: business account ${DEMO_WABA_ID}, phone number id ${DEMO_PHONE_NUMBER_ID}, token ${DEMO_ACCESS_TOKEN}`,
  `social_network: the consent page's person manages the pages ${DEMO_PAGES.map((page) => `${page.id} (${page.name})`).join(', ')}`,
];
