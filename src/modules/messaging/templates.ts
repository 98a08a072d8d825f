import type { components } from '../../../generated/api.js';
import { decodeKeyset, encodeKeyset } from '../../lib/keyset.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from '../accounts/platform-call.js';

type TemplateList = components['schemas']['ChatappTemplateList'];
type TemplateInfo = components['schemas']['ChatappTemplateInfo'];

/** A page of the account's approved templates, read from the platform. */
export async function listChatappTemplates(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { limit?: number; cursor?: string },
): Promise<TemplateList> {
  const [after] = decodeKeyset(query.cursor, ['platformCursor']) ?? [];
  return withConnectedAccount(
    services,
    principal,
    accountId,
    'chatapp',
    async (adapter, account) => {
      const page = await adapter.chatapp.templates(account, { limit: query.limit ?? 20, ...(after ? { after: String(after) } : {}) });
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
        nextCursor: page.after ? encodeKeyset([page.after]) : null,
      };
    },
    { unsupported: (platform) => `${platform} accounts have no chat app templates.` },
  );
}
