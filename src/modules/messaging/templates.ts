import type { components } from '../../../generated/api.js';
import { platformPage } from '../../lib/pagination.js';
import { idOf } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from '../accounts/platform-call.js';

type TemplateList = components['schemas']['ChatappTemplateList'];
type TemplateInfo = components['schemas']['ChatappTemplateInfo'];

/** A page of the account's approved templates, read from the platform (see platformPage). */
export async function listChatappTemplates(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { limit?: number; cursor?: string },
): Promise<TemplateList> {
  return platformPage(query, ({ limit, after }) =>
    withConnectedAccount(
      services,
      principal,
      { accountId: idOf('acc', accountId) },
      'chatapp',
      async (adapter, account) => {
        const page = await adapter.chatapp.templates(account, { limit, ...(after ? { after } : {}) });
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
          next: page.after,
        };
      },
      { unsupported: (platform) => `${platform} accounts have no chat app templates.` },
    ),
  );
}
