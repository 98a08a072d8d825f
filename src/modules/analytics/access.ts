import { idOf } from '../../lib/ids.js';
import type { Insights } from '../../platforms/capabilities/insights.js';
import type { Services } from '../../services.js';
import { type CapableAdapter, withConnectedAccount } from '../accounts/platform-call.js';
import type { AccountRow } from '../accounts/models.js';
import { findAccount } from '../accounts/read.js';
import type { Principal } from '../auth/principal.js';
import type { FigureSource } from './figures.js';

/**
 * Reads an account's figures through its platform: the caller's account, a platform with insights (422 with why
 * otherwise), connected with the scopes the figures need (`need`: the account's or its posts'; 422
 * `permission_missing` naming the scope), the platform's failures (throttling: 429 with its wait) mapped once.
 */
export async function withInsights<T>(
  services: Services,
  principal: Principal,
  accountId: string,
  need: keyof Insights['scopes'],
  read: (source: FigureSource, row: AccountRow) => Promise<T>,
): Promise<T> {
  const { platform } = await findAccount(services.db, principal, idOf('acc', accountId));
  const scopes = services.platforms.get(platform)?.insights?.scopes[need] ?? [];
  return withConnectedAccount(
    services,
    principal,
    { accountId: idOf('acc', accountId) },
    'insights',
    (adapter: CapableAdapter<'insights'>, account, row) =>
      read({ db: services.db, accountId: row.id, platform: row.platform, account, insights: adapter.insights }, row),
    { scopes, unsupported: (p) => services.platforms.get(p)?.lacks?.insights ?? `${p} accounts have no analytics.` },
  );
}
