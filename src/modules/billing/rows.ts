import type { components } from '../../../generated/api.js';
import type { SubscriptionStatus } from '../usage/owner-plan.js';

// The rows of the billing area's tables, as Knex reads them (columns in camelCase).

export interface BillingAccountRow {
  ownerId: string;
  customerId: string | null;
  subscriptionId: string | null;
  subscriptionCreatedAt: Date | null;
  plan: string | null;
  subscriptionStatus: SubscriptionStatus;
}

export interface InvoiceRow {
  id: string;
  ownerId: string;
  number: string | null;
  status: components['schemas']['BillingInvoice']['status'];
  amountDue: number;
  amountPaid: number;
  currency: string;
  plan: string;
  periodStart: Date;
  periodEnd: Date;
  hostedInvoiceUrl: string | null;
  invoicePdfUrl: string | null;
  providerCreatedAt: Date;
}
