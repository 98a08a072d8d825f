import type { components } from '../../../generated/api.js';
import { InvalidCursorError } from '../../lib/errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from '../accounts/platform-call.js';

type TemplateList = components['schemas']['ChatappTemplateList'];
type TemplateInfo = components['schemas']['ChatappTemplateInfo'];

const CURSOR_PREFIX = 'tpl:';

/** The platform's paging cursor, wrapped so that only cursors of this list are taken. */
function platformCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith(CURSOR_PREFIX) || decoded.length === CURSOR_PREFIX.length) throw new InvalidCursorError();
  return decoded.slice(CURSOR_PREFIX.length);
}

/** A page of the account's approved templates, read from the platform. */
export async function listChatappTemplates(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { limit?: number; cursor?: string },
): Promise<TemplateList> {
  const after = platformCursor(query.cursor);
  return withConnectedAccount(
    services,
    principal,
    accountId,
    'chatapp',
    async (adapter, account) => {
      const page = await adapter.chatapp.templates(account, { limit: query.limit ?? 20, ...(after ? { after } : {}) });
      return {
        data: page.data.map((template): TemplateInfo => ({
          name: template.name,
          language: template.language,
          status: 'approved',
          category: template.category as TemplateInfo['category'],
          components: template.components.map((c) => ({
            type: c.type as TemplateInfo['components'][number]['type'],
            text: c.text,
            parameterCount: c.parameterCount,
          })),
        })),
        nextCursor: page.after ? Buffer.from(`${CURSOR_PREFIX}${page.after}`).toString('base64url') : null,
      };
    },
    { unsupported: (platform) => `${platform} accounts have no chat app templates.` },
  );
}
