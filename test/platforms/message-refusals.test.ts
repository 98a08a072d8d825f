import { expect } from 'chai';
import { SEND_REFUSALS as BOTCHAT } from '../../src/platforms/botchat/messaging.js';
import { SEND_REFUSALS as CHATAPP_CLOUD } from '../../src/platforms/chatapp-cloud/messaging.js';
import type { MessageRefusal } from '../../src/platforms/capabilities/messaging.js';
import { type RefusalAnswer, type RefusalRule, refusalOf } from '../../src/platforms/capabilities/refusals.js';
import { SEND_REFUSALS as SOCIAL_NETWORK } from '../../src/platforms/social-network/messaging.js';

/**
 * Each platform's refusals of a message, read from answers as the platforms document them (code, subcode, words):
 * every rule is met by one of them, and answers that look alike but mean something else fall through.
 */
const CASES: Array<{
  platform: string;
  rules: ReadonlyArray<RefusalRule<MessageRefusal>>;
  answers: Array<[RefusalAnswer, MessageRefusal | null]>;
}> = [
  {
    platform: 'social_network (Send API)',
    rules: SOCIAL_NETWORK,
    answers: [
      [{ code: 10, subcode: 2018278, message: '(#10) This message is sent outside of allowed window.' }, 'messaging_window_closed'],
      [{ code: 10, message: '(#10) This message is sent outside of allowed window.' }, 'messaging_window_closed'],
      [{ code: 10, subcode: 2018108, message: "(#10) This person isn't receiving messages from you right now." }, 'recipient_blocked'],
      [{ code: 551, subcode: 1545041, message: "(#551) This person isn't available right now." }, 'recipient_blocked'],
      [{ code: 100, subcode: 2018001, message: '(#100) No matching user found' }, 'recipient_not_found'],
      [{ code: 10900, message: 'Activity already replied to' }, 'private_reply_already_sent'],
      [{ code: 10903, message: "This activity can't be replied to" }, 'private_reply_window_closed'],
      [{ code: 100, subcode: 2018047, message: '(#100) Upload attachment failure.' }, null],
      [{ code: 10, subcode: 2018065, message: '(#10) Requires pages_messaging permission to manage the object' }, null],
    ],
  },
  {
    platform: 'botchat (Bot API)',
    rules: BOTCHAT,
    answers: [
      [{ code: 403, message: 'Forbidden: bot was blocked by the user' }, 'recipient_blocked'],
      [{ code: 403, message: "Forbidden: bot can't initiate conversation with a user" }, 'recipient_blocked'],
      [{ code: 403, message: 'Forbidden: user is deactivated' }, 'recipient_not_found'],
      [{ code: 400, message: 'Bad Request: chat not found' }, 'recipient_not_found'],
      [{ code: 400, message: 'Bad Request: message is too long' }, null],
    ],
  },
  {
    platform: 'chatapp-cloud (Cloud API)',
    rules: CHATAPP_CLOUD,
    answers: [
      [{ code: 132000, message: 'Number of parameters does not match the expected number of params' }, 'template_invalid'],
      [{ code: 132001, message: 'Template name does not exist in the translation' }, 'template_invalid'],
      [{ code: 132007, message: 'Template Format Character Policy Violated' }, 'template_invalid'],
      [{ code: 132012, message: 'Template Parameter Format Mismatch' }, 'template_invalid'],
      [{ code: 131047, message: 'Re-engagement message' }, 'messaging_window_closed'],
      [{ code: 131026, message: 'Message Undeliverable' }, 'recipient_not_found'],
      [{ code: 131051, message: 'Unsupported message type' }, null],
    ],
  },
];

describe('message refusals — each platform’s rules as data', () => {
  for (const { platform, rules, answers } of CASES) {
    it(`${platform}: every rule is met by a documented answer, and other answers fall through to the generic refusal`, () => {
      for (const [answer, meaning] of answers) expect(refusalOf(rules, answer), answer.message).to.equal(meaning);
      const met = new Set(answers.map(([answer]) => rules.find((rule) => refusalOf([rule], answer))));
      expect(rules.filter((rule) => !met.has(rule))).to.deep.equal([]);
    });
  }
});
