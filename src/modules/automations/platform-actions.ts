import { failed, type Performer } from './performer.js';
import type { ActionType } from './records.js';

type PlatformAction = Exclude<ActionType, 'add_tag'>;

/**
 * The actions that write to the platform. Each must send through the platform-write ledger under
 * `call.ledgerKey`, so a run resumed after a crash never sends one twice: the messaging area's send
 * (src/modules/messaging/send.ts) and the comments area's reply and hide (src/modules/comments/actions.ts)
 * take that key. Until those are part of the service, each fails visibly as `not_available`; this table is
 * the one place that wires them.
 */
function notAvailable(what: string): Performer {
  return async () => failed('not_available', `${what} from automations is not available in this version of the service.`);
}

export const platformPerformers: Record<PlatformAction, Performer> = {
  reply_message: notAvailable('Replying to messages'),
  reply_comment: notAvailable('Replying to comments'),
  send_private_reply: notAvailable('Answering comments privately'),
  hide_comment: notAvailable('Hiding comments'),
};
