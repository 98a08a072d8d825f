import { defineArea, oneAtATime } from '../area.js';
import { applyBillingChange, billingWebhooks } from './events.js';
import * as handlers from './handlers.js';
import { billingSettings } from './settings.js';

/** Subscriptions and invoices at the payment provider (Stripe's protocol); the plans and limits are usage's. */
export const billing = defineArea({
  name: 'billing',
  contractArea: 'Usage',
  handlers,
  tables: ['billing_accounts', 'billing_invoices', 'billing_invoice_cancellations', 'billing_invoice_transitions'],
  settings: billingSettings,
  webhookSources: { billing: billingWebhooks },
  incoming: { billing_change: oneAtATime((services, _platform, change, trx) => applyBillingChange(services, change, trx)) },
});
