import { closed, type ControlBodies, text } from '../control-schema.js';
import { DEMO_PHONE_NUMBER } from './platform.js';

const phone = (description: string) => ({ type: 'string', pattern: '^\\+?[0-9 ]{6,20}$', description });
const phoneOfTheApp = phone(`the phone of the paired account (${DEMO_PHONE_NUMBER} by default)`);

/** The bodies of the QR-paired chat app's people's controls. */
export const QRCHAT_CONTROLS: ControlBodies = {
  'POST /_sandbox/qrchat/scan': closed(
    { qr: text('the QR code the session shows'), phoneNumber: phoneOfTheApp, name: text('the account name') },
    ['qr'],
    {
      qr: '2@…',
      phoneNumber: DEMO_PHONE_NUMBER,
    },
  ),
  'POST /_sandbox/qrchat/code': closed(
    { code: text('the pairing code the session shows'), phoneNumber: phoneOfTheApp, name: text('the account name') },
    ['code'],
    { code: 'ABCD-EFGH', phoneNumber: DEMO_PHONE_NUMBER },
  ),
  'POST /_sandbox/qrchat/messages': closed(
    { to: phoneOfTheApp, from: phone('the person who writes'), name: text("the person's name"), text: text('what they write') },
    [],
    { to: DEMO_PHONE_NUMBER, from: '+4917000000001', name: 'Sam', text: 'Hello!' },
  ),
  'POST /_sandbox/qrchat/read': closed({ phoneNumber: phone('the person who reads'), from: phoneOfTheApp }, ['phoneNumber'], {
    phoneNumber: '+4917000000001',
    from: DEMO_PHONE_NUMBER,
  }),
  'POST /_sandbox/qrchat/logout': closed({ phoneNumber: phoneOfTheApp }, [], { phoneNumber: DEMO_PHONE_NUMBER }),
};
