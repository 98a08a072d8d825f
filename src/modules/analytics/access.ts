import type { Insights } from '../../platforms/capabilities/insights.js';
import type { Services } from '../../services.js';
import { type CapableAdapter, withConnectedAccount } from '../accounts/platform-call.js';
import type { AccountRow } from '../accounts/models.js';
import { findAccount } from '../accounts/read.js';
import type { Principal } from '../auth/principal.js';
import type { FigureSource } from './figures.js';

/** Why an account of a platform without insights has no analytics, for the 422. */
const WITHOUT_ANALYTICS: Record<string, string> = {
  botchat: 'botchat accounts are bots in a chat app: the platform gives apps no audience figures for them.',
  'chatapp-cloud': 'chatapp-cloud numbers are chat accounts: the platform gives conversation pricing figures, not an audience.',
  qrchat: 'qrchat accounts are paired chat accounts: there is no API with figures behind them.',
  calendar: 'calendar accounts are calendars: they have no audience or figures.',
  short_video_ads: 'short_video_ads accounts are ad accounts: their figures are ad insights (GET /ads/insights), not account analytics.',
};

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
  const { platform } = await findAccount(services.db, principal, accountId);
  const scopes = services.platforms.get(platform)?.insights?.scopes[need] ?? [];
  return withConnectedAccount(
    services,
    principal,
    accountId,
    'insights',
    (adapter: CapableAdapter<'insights'>, account, row) =>
      read({ db: services.db, accountId: row.id, platform: row.platform, account, insights: adapter.insights }, row),
    { scopes, unsupported: (p) => WITHOUT_ANALYTICS[p] ?? `${p} accounts have no analytics.` },
  );
}
