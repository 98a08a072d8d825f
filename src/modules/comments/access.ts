import { NotFoundError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import { CommentActionRefused, CommentNotFoundAtPlatform } from '../../platforms/capabilities/comments.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { type CapableAdapter, withConnectedAccount } from '../accounts/platform-call.js';
import { CommentActionRefusedError } from './errors.js';

/** Why an account's platform has no comments for apps, for the 422 `account_platform_unsupported`. */
function unsupported(services: Services, platform: string): string {
  const having = services.platforms
    .all()
    .filter((adapter) => adapter.comments)
    .map((adapter) => adapter.id);
  return (
    services.platforms.get(platform)?.lacks?.comments ??
    `${platform} accounts have no comments the platform lets apps manage; comments are on ${having.join(' and ')} accounts.`
  );
}

/**
 * Acts on an account's comments through its platform (`withConnectedAccount`): a platform without comments is
 * 422 with why; the platform's "no such comment or post" is 404 (`what`), its refusal of the action 422
 * `comment_action_refused` in its own words (`action`: what was refused, "hide").
 */
export function withComments<T>(
  services: Services,
  principal: Principal,
  accountId: string,
  what: 'comment' | 'post',
  action: string,
  call: (comments: CapableAdapter<'comments'>['comments'], account: AdapterAccount, row: AccountRow) => Promise<T>,
): Promise<T> {
  const target = { accountId: idOf('acc', accountId) };
  return withConnectedAccount(services, principal, target, 'comments', (adapter, account, row) => call(adapter.comments, account, row), {
    unsupported: (platform) => unsupported(services, platform),
    handle: (error) => {
      if (error instanceof CommentNotFoundAtPlatform) throw new NotFoundError(`${what} with this id on the account at the platform`);
      if (error instanceof CommentActionRefused)
        throw new CommentActionRefusedError(`The platform does not let the account ${action} this comment: ${error.message}`);
    },
  });
}
