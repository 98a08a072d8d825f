import { type Handler, principalOf } from '../../http/handler.js';
import { cancelInvoice } from './cancel.js';
import { createCheckout, createPortal } from './checkout.js';
import { listInvoices } from './invoices.js';

export const createCheckoutSession: Handler<'createCheckoutSession'> = async (request, services) => ({
  status: 201,
  body: await createCheckout(services, principalOf(request).ownerId, request.body),
});

export const createPortalSession: Handler<'createPortalSession'> = async (request, services) => ({
  status: 201,
  body: await createPortal(services, principalOf(request).ownerId, request.body.returnUrl),
});

export const listBillingInvoices: Handler<'listBillingInvoices'> = async (request, services) => ({
  status: 200,
  body: await listInvoices(services.db, principalOf(request).ownerId, request.query),
});

export const cancelBillingInvoice: Handler<'cancelBillingInvoice'> = async (request, services) => ({
  status: 200,
  body: await cancelInvoice(services, principalOf(request).ownerId, request.params.id, request.body?.reason ?? null),
});
