import { defineArea } from '../area.js';
import { PROCESS_EVENT_JOB, processBillingEvent, SWEEP_EVENTS_JOB, sweepBillingEvents } from './events.js';
import * as handlers from './handlers.js';
import { billingSettings } from './settings.js';

/** Subscriptions and invoices at the payment provider (Stripe's protocol); the plans and limits are usage's. */
export const billing = defineArea({
  name: 'billing',
  contractArea: 'Usage',
  handlers,
  settings: billingSettings,
  jobs: (services) => ({
    [PROCESS_EVENT_JOB]: (data: { id: string }) => processBillingEvent(services, data.id),
    [SWEEP_EVENTS_JOB]: () => sweepBillingEvents(services),
  }),
  schedules: { [SWEEP_EVENTS_JOB]: '30 seconds' },
});
