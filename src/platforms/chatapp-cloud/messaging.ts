import { PlatformError } from '../errors.js';
import {
  type ChatappPayload,
  type ChatappSender,
  type ChatappTemplate,
  type MessageKind,
  type MessageRefusal,
  MessageRefused,
  type MessageSender,
  type MessageViolation,
  type OutgoingMessage,
  type OutgoingPart,
  type SentPart,
  textThenEachFile,
  textTooLong,
} from '../capabilities/messaging.js';
import type { PublishMedia } from '../capabilities/publishing.js';
import { type RefusalRule, refusalOf } from '../capabilities/refusals.js';
import type { AdapterAccount } from '../types.js';
import { classifyGraphError, graph } from './client.js';

const TEXT_LIMIT = 4096;

interface SendAnswer {
  contacts?: Array<{ input?: string; wa_id?: string }>;
  messages?: Array<{ id: string }>;
}
interface TemplateNode {
  name: string;
  language: string;
  status: string;
  category: string;
  components?: Array<{ type: string; format?: string; text?: string }>;
}

/** The cloud API's member for a file, and our kind. */
function mediaTypeOf(media: PublishMedia): { type: string; kind: MessageKind } {
  if (media.kind === 'image') return { type: 'image', kind: 'image' };
  if (media.kind === 'video' || media.kind === 'gif') return { type: 'video', kind: 'video' };
  if (media.kind === 'audio') return { type: 'audio', kind: 'audio' };
  return { type: 'document', kind: 'document' };
}

/**
 * The cloud API's refusals of a message: templates (132000 parameters, 132001 not in that language, 132007 its
 * policy, 132012 parameter format) are the sender's to fix; 131047 is the closed 24-hour window; 131026 a number
 * that cannot receive (not on the app, or an old version).
 */
export const SEND_REFUSALS: ReadonlyArray<RefusalRule<MessageRefusal>> = [
  { code: 132000, means: 'template_invalid' },
  { code: 132001, means: 'template_invalid' },
  { code: 132007, means: 'template_invalid' },
  { code: 132012, means: 'template_invalid' },
  { code: 131047, means: 'messaging_window_closed' },
  { code: 131026, means: 'recipient_not_found' },
];

function classifySendError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyGraphError(status, body, headers);
  const refusal = refusalOf(SEND_REFUSALS, { code: Number(error.details.platformCode), message: error.message });
  return refusal ? new MessageRefused(refusal, error.message, error.details) : error;
}

/**
 * The cloud chat API (`POST /{phone-number-id}/messages`): direct messages (text first, then one message per file
 * by its public link), its own message types, and the business account's approved templates. Free-form messages
 * outside the 24-hour window are accepted and fail later (131047): the service checks the window first.
 */
export class ChatappCloudMessaging implements MessageSender, ChatappSender {
  readonly scopes = ['whatsapp_business_messaging'];
  readonly receipts = true;
  readonly replyWindowHours = 24;
  readonly windowRefusedLate = true;

  constructor(private readonly apiUrl: string) {}

  validate(message: OutgoingMessage): MessageViolation[] {
    const violations: MessageViolation[] = [];
    if (message.recipient.kind === 'comment') violations.push({ path: 'commentId', message: 'chatapp-cloud has no comments to reply to.' });
    if (message.tag)
      violations.push({ path: 'messagingTag', message: 'Message tags are Messenger’s; outside the window, send a template.' });
    violations.push(...textTooLong(message, TEXT_LIMIT, 'the chat app'));
    return violations;
  }

  parts(message: OutgoingMessage): OutgoingPart[] {
    return textThenEachFile(message);
  }

  async send(account: AdapterAccount, message: OutgoingMessage, part: OutgoingPart): Promise<SentPart[]> {
    const [file] = part.media;
    const media = file ? mediaTypeOf(file) : null;
    const sent = await this.post(account, {
      to: /^\+?[\d\s-]+$/.test(message.recipient.id) ? message.recipient.id.replace(/\D/g, '') : message.recipient.id,
      type: media?.type ?? 'text',
      content: media ? { link: file!.url } : { body: part.text, preview_url: false },
    });
    return [
      {
        platformMessageId: sent.platformMessageId,
        platformConversationId: sent.waId,
        kind: media?.kind ?? 'text',
        text: part.text,
        media: file ?? null,
      },
    ];
  }

  sendNative(account: AdapterAccount, payload: ChatappPayload) {
    return this.post(account, payload);
  }

  async templates(account: AdapterAccount, page: { limit: number; after?: string }) {
    const wabaId = account.credentials.extra?.wabaId;
    const answer = await graph<{ data: TemplateNode[]; paging?: { cursors?: { after?: string }; next?: string } }>(
      this.apiUrl,
      account.credentials.accessToken,
      'GET',
      `${wabaId}/message_templates`,
      {
        query: {
          status: 'APPROVED',
          fields: 'name,language,status,category,components',
          limit: String(page.limit),
          ...(page.after ? { after: page.after } : {}),
        },
      },
    );
    const data: ChatappTemplate[] = answer.data.map((node) => ({
      name: node.name,
      language: node.language,
      category: node.category.toLowerCase(),
      components: (node.components ?? []).map((component) => ({
        type: component.type.toLowerCase(),
        text: component.text ?? null,
        parameterCount: new Set(component.text?.match(/\{\{\d+\}\}/g) ?? []).size,
      })),
    }));
    return { data, after: answer.paging?.next ? (answer.paging.cursors?.after ?? null) : null };
  }

  /** A file a person sent: its short-lived URL from `GET /{media-id}`, fetched with the token as the API requires. */
  async download(account: AdapterAccount, ref: string): Promise<{ bytes: Buffer; mimeType: string | null }> {
    const token = account.credentials.accessToken;
    const media = await graph<{ url?: string; mime_type?: string }>(this.apiUrl, token, 'GET', ref);
    if (!media.url) throw new PlatformError('invalid_request', 'the platform gave no URL for the media');
    const response = await fetch(media.url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(20_000) }).catch(
      (error: Error) => {
        throw new PlatformError('transient', `the media could not be fetched: ${error.message}`);
      },
    );
    if (!response.ok)
      throw new PlatformError(response.status >= 500 ? 'transient' : 'invalid_request', `the media host answered ${response.status}`);
    return { bytes: Buffer.from(await response.arrayBuffer()), mimeType: media.mime_type ?? response.headers.get('content-type') };
  }

  private async post(account: AdapterAccount, payload: ChatappPayload): Promise<{ platformMessageId: string; waId: string }> {
    const answer = await graph<SendAnswer>(
      this.apiUrl,
      account.credentials.accessToken,
      'POST',
      `${account.platformAccountId}/messages`,
      {
        body: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          // A person known only by their business-scoped id is addressed by it; everyone else by number.
          ...(/^\d+$/.test(payload.to) ? { to: payload.to } : { recipient: payload.to }),
          type: payload.type,
          [payload.type]: payload.content,
          ...(payload.replyTo ? { context: { message_id: payload.replyTo } } : {}),
        },
      },
      classifySendError,
    );
    const id = answer.messages?.[0]?.id;
    if (!id) throw new PlatformError('invalid_request', 'the chat app answered without a message id');
    return { platformMessageId: id, waId: answer.contacts?.[0]?.wa_id ?? payload.to };
  }
}
