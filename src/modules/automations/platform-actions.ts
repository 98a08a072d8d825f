import { ApiError } from '../../lib/errors.js';
import { PlatformRateLimitedError } from '../accounts/errors.js';
import { ownerItself } from '../auth/principal.js';
import { hideComment, replyToComment } from '../comments/actions.js';
import { deliverMessage } from '../messaging/send.js';
import { type ActionCall, failed, type Performed, type Performer, succeeded, type Throttled } from './performer.js';
import type { ActionType } from './rows.js';

type PlatformAction = Exclude<ActionType, 'add_tag'>;

/**
 * The actions that write to the platform, through the messaging and comments areas. Each sends through the
 * platform-write ledger under `call.ledgerKey`, so a run resumed after a crash never sends one twice.
 */
export const platformPerformers: Record<PlatformAction, Performer> = {
  reply_message: acting(async ({ services, run, action }, ledgerKey) => {
    const recipient = run.conversationId ? { conversationId: run.conversationId } : { userId: run.personId };
    await deliverMessage(services, ownerItself(run.ownerId), run.accountId, { recipient, text: action.text ?? null }, ledgerKey);
  }),
  send_private_reply: acting(async ({ services, run, action }, ledgerKey) => {
    await deliverMessage(
      services,
      ownerItself(run.ownerId),
      run.accountId,
      { recipient: { commentId: run.sourceId }, text: action.text ?? null },
      ledgerKey,
    );
  }),
  reply_comment: acting(async ({ services, run, action }, ledgerKey) => {
    await replyToComment(services, run.ownerId, run.accountId, run.sourceId, action.text ?? '', ledgerKey);
  }),
  hide_comment: acting(async ({ services, run }, ledgerKey) => {
    await hideComment(services, run.ownerId, run.accountId, run.sourceId, true, ledgerKey);
  }),
};

/**
 * An action's outcome: done, or failed with the API's own error (the code and detail a caller of the same
 * operation would get; `platformError` keeps what the platform said where the failure is the platform's).
 */
function acting(write: (call: ActionCall, ledgerKey: string) => Promise<void>): Performer {
  return async (call): Promise<Performed | Throttled> => {
    try {
      await write(call, call.ledgerKey);
      return succeeded();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fromPlatform = error.code.startsWith('platform_') || error.status === 502;
      const failure = failed(error.code, error.detail, fromPlatform ? error.detail : null);
      if (!(error instanceof PlatformRateLimitedError)) return failure;
      // Refused by the platform's limit: nothing was sent, and the ledger lets the same key be tried again.
      return { status: 'throttled', until: new Date(Date.now() + error.retryAfterSeconds * 1000), failure };
    }
  };
}
