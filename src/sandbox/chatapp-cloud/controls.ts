import { closed, type ControlBodies, integer, oneOf, strictControl, tagged, text } from '../control-schema.js';
import { DEMO_ACCESS_TOKEN, DEMO_PHONE_NUMBER_ID, DEMO_WABA_ID } from './demo.js';

const number = text('the phone number id of the business');
const phone = { type: 'string', pattern: '^\\+?[0-9 ]{6,20}$', description: "a person's phone number" };
const WAMID = 'wamid.HBgNNDkxNTExMjM0NTY3OBUCABEYEjQ…';

/** The bodies of the cloud chat API's people's controls. */
export const CHATAPP_CLOUD_CONTROLS: ControlBodies = {
  'POST /_sandbox/chatapp-cloud/numbers': closed(
    {
      verifiedName: text("the business's name as the platform verified it"),
      registered: { type: 'boolean', description: 'false: the number is not registered with the cloud API yet' },
      appSecret: text("its own app's secret (the token is that app's), else the sandbox's app"),
      scopes: { type: 'array', items: oneOf(['whatsapp_business_messaging', 'whatsapp_business_management', 'business_management']) },
    },
    [],
    { verifiedName: 'Acme Coffee' },
  ),
  'POST /_sandbox/chatapp-cloud/messages': closed(
    {
      phoneNumberId: number,
      from: phone,
      userId: text('a person known only by their business-scoped id (no number in the webhook)'),
      name: text("the person's profile name"),
      text: { type: 'string' },
      content: {
        type: 'object',
        required: ['type'],
        properties: { type: text('image, audio, location, …: with its member, as the webhook carries it') },
        description: 'another kind of message than text',
      },
      webhookUrl: { type: 'string', pattern: '^https?://', description: "the app's callback URL, where no alternate one is set" },
    },
    ['phoneNumberId'],
    { phoneNumberId: DEMO_PHONE_NUMBER_ID, from: '+49 151 12345678', name: 'Ana', text: 'Is the roastery open on Sunday?' },
  ),
  'POST /_sandbox/chatapp-cloud/revoke': closed({ accessToken: text('the token the business revokes') }, ['accessToken'], {
    accessToken: DEMO_ACCESS_TOKEN,
  }),
  'POST /_sandbox/chatapp-cloud/age': closed(
    { phoneNumberId: number, from: phone, hours: { type: 'number', minimum: 0, description: 'how much older the last message gets' } },
    ['phoneNumberId', 'from', 'hours'],
    { phoneNumberId: DEMO_PHONE_NUMBER_ID, from: '+49 151 12345678', hours: 25 },
  ),
  'POST /_sandbox/chatapp-cloud/undeliverable': closed({ phoneNumberId: number, to: phone }, ['phoneNumberId', 'to'], {
    phoneNumberId: DEMO_PHONE_NUMBER_ID,
    to: '+49 151 12345678',
  }),
  'POST /_sandbox/chatapp-cloud/templates': closed(
    {
      wabaId: text('the business account'),
      template: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'language', 'status', 'category', 'components'],
        properties: {
          name: text('its name'),
          language: text('its language code'),
          status: oneOf(['APPROVED', 'PENDING', 'REJECTED']),
          category: oneOf(['MARKETING', 'UTILITY', 'AUTHENTICATION']),
          components: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type'],
              properties: {
                type: oneOf(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']),
                format: { type: 'string' },
                text: { type: 'string' },
                buttons: { type: 'array' },
              },
            },
          },
        },
      },
    },
    ['wabaId', 'template'],
    {
      wabaId: DEMO_WABA_ID,
      template: {
        name: 'winter_blend',
        language: 'en',
        status: 'APPROVED',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Our winter blend is back, {{1}}.' }],
      },
    },
  ),
  'POST /_sandbox/chatapp-cloud/statuses': closed(
    {
      phoneNumberId: number,
      wamid: text('the message the business sent'),
      status: oneOf(['sent', 'delivered', 'read', 'failed']),
      error: closed({ code: integer('the platform code', 1), title: text('its title') }, ['code', 'title'], {
        code: 131026,
        title: 'Message undeliverable',
      }),
    },
    ['phoneNumberId', 'wamid', 'status'],
    { phoneNumberId: DEMO_PHONE_NUMBER_ID, wamid: WAMID, status: 'read' },
  ),
  'POST /_sandbox/chatapp-cloud/faults': closed(
    {
      phoneNumberId: number,
      faults: {
        type: 'array',
        minItems: 1,
        items: tagged('kind', [
          closed({ kind: oneOf(['throttled', 'lost_answer']) }, ['kind'], { kind: 'throttled' }),
          closed({ kind: { const: 'status_first' }, status: oneOf(['sent', 'delivered', 'read', 'failed']) }, ['kind', 'status'], {
            kind: 'status_first',
            status: 'delivered',
          }),
        ]),
      },
    },
    ['phoneNumberId', 'faults'],
    { phoneNumberId: DEMO_PHONE_NUMBER_ID, faults: [{ kind: 'throttled' }] },
  ),
  'POST /_sandbox/chatapp-cloud/media': closed(
    { phoneNumberId: number, mimeType: { type: 'string', pattern: '^[a-z]+/[-+.0-9a-z]+$', description: 'image/jpeg by default' } },
    ['phoneNumberId'],
    { phoneNumberId: DEMO_PHONE_NUMBER_ID, mimeType: 'image/jpeg' },
  ),
  ...strictControl('chatapp-cloud'),
};
