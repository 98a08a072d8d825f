import { closed, type ControlBodies, integer, NO_BODY, oneOf, text } from '../control-schema.js';

/** The bodies of the wallet vendor's controls: its developer site, the phones, the push service. */
export const WALLET_CONTROLS: ControlBodies = {
  'POST /_sandbox/wallet/certificates': closed(
    {
      passTypeIdentifier: { type: 'string', pattern: '^pass\\.[A-Za-z0-9.-]+$' },
      teamIdentifier: { type: 'string', pattern: '^[A-Z0-9]{10}$' },
      organization: text('the organisation the certificate names'),
      validFrom: text('an ISO date: when it starts to be valid'),
      validUntil: text('an ISO date: when it runs out'),
      passphrase: text('encrypts the private key and the .p12'),
      issuer: oneOf(['vendor', 'stranger'], "stranger: a certificate another authority than the vendor's issued"),
    },
    ['passTypeIdentifier', 'teamIdentifier'],
    { passTypeIdentifier: 'pass.coffee.acme.loyalty', teamIdentifier: 'A1B2C3D4E5' },
  ),
  'POST /_sandbox/wallet/phones': NO_BODY,
  'POST /_sandbox/wallet/phones/:id/passes': closed(
    { downloadUrl: { type: 'string', pattern: '^https?://', description: "the pass's download link" } },
    ['downloadUrl'],
    {
      downloadUrl: 'http://localhost:8080/wallet/passes/…/download',
    },
  ),
  'DELETE /_sandbox/wallet/phones/:id/passes/:passTypeIdentifier/:serialNumber': NO_BODY,
  'POST /_sandbox/wallet/phones/:id/leave': NO_BODY,
  'POST /_sandbox/wallet/push/fail-next': closed(
    {
      status: { enum: [400, 403, 410, 429], description: 'the push service answers this status' },
      reason: text("Apple's reason (BadDeviceToken, Unregistered, TooManyRequests, …)"),
      times: integer('how many pushes (1 by default)', 1),
    },
    ['status'],
    { status: 410, reason: 'Unregistered' },
  ),
};
