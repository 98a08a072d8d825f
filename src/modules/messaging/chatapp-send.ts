import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import type { ChatappPayload, ChatappSender, ChatappTemplate, MessageKind, SentPart } from '../../platforms/capabilities/messaging.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { findAccount } from '../accounts/read.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { MessageRefusedError, refusalProblem } from './errors.js';
import type { Message } from './messages.js';
import { mediaOf, sendChatappFromSession } from './chatapp-session.js';
import { keptAsSent, storedMessages } from './stored.js';
import { assertReplyWindowOpen } from './window.js';

type ChatappMessageSend = components['schemas']['ChatappMessageSend'];
type TemplateComponent = components['schemas']['ChatappTemplateComponent'];
type MediaMember = components['schemas']['ChatappMediaMessage'];

const MEMBERS = ['text', 'template', 'image', 'document', 'audio', 'video', 'interactive', 'reaction'] as const;
const KINDS: Record<ChatappMessageSend['type'], MessageKind> = {
  text: 'text',
  template: 'template',
  image: 'image',
  document: 'document',
  audio: 'audio',
  video: 'video',
  interactive: 'text',
  reaction: 'other',
};
const WINDOW_HOURS = 24;
/** Pages of templates read to find one (a business account has at most a few hundred). */
const TEMPLATE_PAGES = 10;

/** `to` as E.164 digits, checked against its country's numbering plan. */
export function e164Digits(to: string): string {
  const number = parsePhoneNumberFromString(`+${to.replace(/^\+/, '')}`);
  if (!number?.isValid()) {
    throw new ValidationFailedError([
      { path: 'body/to', code: 'phone_number', message: `${to} is not a valid phone number in E.164 form.` },
    ]);
  }
  return number.number.slice(1);
}

/**
 * Sends a message in the cloud chat API's own shape from one of the owner's accounts: the member `type` names
 * (and no other), free-form ones only inside the 24-hour window, a template only as approved with a parameter
 * for each placeholder. One write of the ledger under `<ledgerKey>`: a lost answer is never sent again. Counts
 * one `messages` usage.
 */
export async function sendChatappMessage(
  services: Services,
  principal: Principal,
  accountId: string,
  body: ChatappMessageSend,
  ledgerKey: string,
): Promise<Message> {
  const given = MEMBERS.filter((member) => body[member] !== undefined);
  if (given.length !== 1 || given[0] !== body.type) {
    throw new ValidationFailedError([
      { path: 'body', code: 'type_member', message: `Give the member ${body.type} and no other of ${MEMBERS.join(', ')}.` },
    ]);
  }
  const to = e164Digits(body.to);
  const found = await findAccount(services.db, principal, idOf('acc', accountId));
  if (services.platforms.get(found.platform)?.sessionMessaging)
    return sendChatappFromSession(services, principal, found, to, body, ledgerKey);
  return withConnectedAccount(
    services,
    principal,
    found,
    'chatapp',
    async (adapter, account, row) => {
      if (body.type !== 'template') await assertReplyWindowOpen(services.db, row, to, WINDOW_HOURS);
      const { payload, text, file = null } = await payloadOf(services, principal, adapter.chatapp, account, to, body);
      const written = await writeOnce<SentPart[]>(services.db, {
        ownerId: row.ownerId,
        accountId: row.id,
        key: `${ledgerKey}:0`,
        kind: 'chatapp.send',
        request: payload,
        send: async () => {
          const sent = await adapter.chatapp.sendNative(account, payload);
          return [
            { platformMessageId: sent.platformMessageId, platformConversationId: sent.waId, kind: KINDS[body.type], text, media: file },
          ];
        },
        // The chat app reports receipts (ChatappCloudMessaging.receipts).
        ...keptAsSent(row, { receipts: true }),
      });
      if (written.how !== 'replayed') services.usage.record(row.ownerId, row.profileId, 'messages', 1);
      return (await storedMessages(services.db, row, [written.result[0]!.platformMessageId]))[0]!;
    },
    {
      scopes: ['whatsapp_business_messaging'],
      unsupported: (platform) => `${platform} accounts have no chat app messages: send with POST /accounts/{id}/messages.`,
      handle: refusalProblem,
    },
  );
}

/** The cloud API's message, and the text and upload to keep on the stored one (the rendered template, the caption). */
async function payloadOf(
  services: Services,
  principal: Principal,
  sender: ChatappSender,
  account: AdapterAccount,
  to: string,
  body: ChatappMessageSend,
): Promise<{ payload: ChatappPayload; text: string | null; file?: PublishMedia | null }> {
  const base = { to, ...(body.replyToMessageId ? { replyTo: body.replyToMessageId } : {}) };
  const link = async (media: Pick<MediaMember, 'mediaId' | 'link'>) => (await mediaOf(services, principal, body.type, media)).url;
  switch (body.type) {
    case 'text':
      return {
        payload: { ...base, type: 'text', content: { body: body.text!.body, preview_url: body.text!.previewUrl ?? false } },
        text: body.text!.body,
      };
    case 'interactive': {
      const { body: prompt, buttons } = body.interactive!;
      const action = { buttons: buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) };
      return { payload: { ...base, type: 'interactive', content: { type: 'button', body: { text: prompt }, action } }, text: prompt };
    }
    case 'reaction':
      return {
        payload: { ...base, type: 'reaction', content: { message_id: body.reaction!.messageId, emoji: body.reaction!.emoji } },
        text: body.reaction!.emoji,
      };
    case 'template':
      return templatePayload(sender, account, base, body.template!, link);
    default: {
      const media = body[body.type]!;
      // The upload sent is the stored message's attachment; a link of the caller's is not ours to list.
      const { url, file } = await mediaOf(services, principal, body.type, media);
      const content = {
        link: url,
        ...(media.caption && body.type !== 'audio' ? { caption: media.caption } : {}),
        ...(media.filename && body.type === 'document' ? { filename: media.filename } : {}),
      };
      return { payload: { ...base, type: body.type, content }, text: media.caption ?? null, file };
    }
  }
}

/**
 * The approved template, with a parameter for each placeholder of its header and body; its rendered body. A media
 * parameter's upload (`mediaId`) is the caller's, checked before the platform is asked for the template.
 */
async function templatePayload(
  sender: ChatappSender,
  account: AdapterAccount,
  base: { to: string; replyTo?: string },
  template: components['schemas']['ChatappTemplate'],
  link: (media: Pick<MediaMember, 'mediaId' | 'link'>) => Promise<string>,
): Promise<{ payload: ChatappPayload; text: string | null }> {
  const links = await Promise.all(
    (template.components ?? []).map((component) => Promise.all(component.parameters.map((p) => (p.mediaId ? link(p) : p.link)))),
  );
  const approved = await findTemplate(sender, account, template.name, template.language);
  if (!approved) throw new MessageRefusedError('template_invalid', `No approved template ${template.name} in ${template.language}.`);
  for (const component of approved.components.filter((c) => c.type === 'header' || c.type === 'body')) {
    const values = (template.components ?? []).find((c) => c.type === component.type)?.parameters.length ?? 0;
    if (values !== component.parameterCount) {
      throw new MessageRefusedError(
        'template_invalid',
        `The ${component.type} of ${template.name} has ${component.parameterCount} placeholders; ${values} parameters were given.`,
      );
    }
  }
  const components = (template.components ?? []).map((component: TemplateComponent, c) => ({
    type: component.type,
    ...(component.subType ? { sub_type: component.subType } : {}),
    ...(component.index !== undefined ? { index: String(component.index) } : {}),
    parameters: component.parameters.map((p, i) => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      if (p.type === 'payload') return { type: 'payload', payload: p.payload };
      const url = links[c]![i];
      return { type: p.type, [p.type]: { ...(url ? { link: url } : {}), ...(p.filename ? { filename: p.filename } : {}) } };
    }),
  }));
  const bodyValues = (template.components ?? []).find((c) => c.type === 'body')?.parameters ?? [];
  const rendered = approved.components
    .find((c) => c.type === 'body')
    ?.text?.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => bodyValues[Number(n) - 1]?.text ?? whole);
  return {
    payload: { ...base, type: 'template', content: { name: template.name, language: { code: template.language }, components } },
    text: rendered ?? null,
  };
}

async function findTemplate(
  sender: ChatappSender,
  account: AdapterAccount,
  name: string,
  language: string,
): Promise<ChatappTemplate | null> {
  let after: string | undefined;
  for (let page = 0; page < TEMPLATE_PAGES; page++) {
    const listed = await sender.templates(account, { limit: 100, ...(after ? { after } : {}) });
    const found = listed.data.find((t) => t.name === name && t.language === language);
    if (found) return found;
    if (!listed.after) return null;
    after = listed.after;
  }
  return null;
}
