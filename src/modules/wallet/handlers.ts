import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import { findProgram } from './programs.js';
import * as programs from './programs.js';
import { connectVendor, uploadCertificate } from './vendor.js';
import { vendorStatus } from './vendor-status.js';

export const createWalletProgram: Handler<'createWalletProgram'> = async (request, { db }) => ({
  status: 201,
  body: await programs.createProgram(db, principalOf(request), request.body),
});

export const listWalletPrograms: Handler<'listWalletPrograms'> = async (request, { db }) => ({
  status: 200,
  body: await programs.listPrograms(db, principalOf(request), pageRequest(request.query), request.query.profileId),
});

export const getWalletProgram: Handler<'getWalletProgram'> = async (request, { db }) => ({
  status: 200,
  body: await programs.readProgram(db, principalOf(request), request.params.id),
});

export const updateWalletProgram: Handler<'updateWalletProgram'> = async (request, services) => {
  const principal = principalOf(request);
  await services.db.transaction((trx) => programs.updateProgram(trx, principal, request.params.id, request.body));
  return { status: 200, body: await programs.readProgram(services.db, principal, request.params.id) };
};

export const connectWalletVendor: Handler<'connectWalletVendor'> = async (request, services) => ({
  status: 200,
  body: await connectVendor(services, principalOf(request), request.params.id, request.body),
});

export const uploadWalletVendorCertificate: Handler<'uploadWalletVendorCertificate'> = async (request, services) => ({
  status: 200,
  body: await uploadCertificate(services, principalOf(request), request.params.id, request.body),
});

export const getWalletVendorStatus: Handler<'getWalletVendorStatus'> = async (request, { db }) => ({
  status: 200,
  body: vendorStatus(await findProgram(db, principalOf(request), request.params.id)),
});
