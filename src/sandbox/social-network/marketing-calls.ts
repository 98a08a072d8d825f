import type { RouterContext } from '@koa/router';
import type { SocialNetwork } from './part.js';
import type { AdAccount } from './state.js';

/** The ad account `id`, used with a person's token granted ads_management; else the Graph's refusal is written. */
export function marketingAdAccount({ state, graph }: SocialNetwork, ctx: RouterContext, id: string): AdAccount | null {
  const token = graph.userToken(ctx);
  if (!token) return null;
  const account = state.adAccounts.get(id);
  if (!account || !state.users.get(token.userId)!.adAccountIds.includes(id)) graph.unknownObject(ctx, id);
  else if (!state.granted(token, 'ads_management')) graph.missingPermission(ctx, 'ads_management');
  else return account;
  return null;
}

/**
 * A write's answer, unless the ad account's next write to `edge` was set to lose it (a people's control): then the
 * write stays done and the connection drops.
 */
export function answerUnlessLost(
  ctx: RouterContext,
  lostAnswers: Record<string, string[]>,
  write: { adAccountId: string; edge: string },
  body: unknown,
): void {
  const lost = lostAnswers[write.adAccountId] ?? [];
  if (lost.includes(write.edge)) {
    lostAnswers[write.adAccountId] = lost.filter((one) => one !== write.edge);
    ctx.respond = false;
    ctx.req.socket.destroy();
    return;
  }
  ctx.body = body;
}
