import { type Handler, principalOf } from '../../http/handler.js';
import { pageRequest } from '../../lib/pagination.js';
import * as passes from './passes.js';
import { programPassesChanged } from './passes.js';
import { findProgram } from './programs.js';
import * as programs from './programs.js';
import { connectVendor, uploadCertificate } from './vendor.js';
import * as transactions from './transactions.js';
import { vendorStatus } from './vendor-status.js';
import * as webService from './web-service.js';

const PKPASS = 'application/vnd.apple.pkpass';

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
  await services.db.transaction(async (trx) => {
    const program = await programs.updateProgram(trx, principal, request.params.id, request.body);
    await programPassesChanged(trx, program.id);
  });
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

export const createWalletPass: Handler<'createWalletPass'> = async (request, services) => ({
  status: 201,
  body: await passes.createPass(services, principalOf(request), request.body),
});

export const listWalletPasses: Handler<'listWalletPasses'> = async (request, services) => ({
  status: 200,
  body: await passes.listPasses(services, principalOf(request), request.params.id, pageRequest(request.query), {
    serialNumber: request.query.serialNumber,
    email: request.query.email,
  }),
});

export const getWalletPass: Handler<'getWalletPass'> = async (request, services) => ({
  status: 200,
  body: passes.presentPass(services, await passes.findPass(services.db, principalOf(request), request.params.id)),
});

export const updateWalletPass: Handler<'updateWalletPass'> = async (request, services) => ({
  status: 200,
  body: await passes.updatePass(services, principalOf(request), request.params.id, request.body),
});

export const deleteWalletPass: Handler<'deleteWalletPass'> = async (request, services) => {
  await passes.deletePass(services, principalOf(request), request.params.id);
  return { status: 204, body: undefined };
};

export const downloadWalletPass: Handler<'downloadWalletPass'> = async (request, services) => {
  const { file, lastModified, serialNumber } = await webService.download(services, request.params.id, request.query.token);
  return {
    status: 200,
    raw: file,
    contentType: PKPASS,
    headers: {
      'Content-Disposition': `attachment; filename="${serialNumber}.pkpass"`,
      'Last-Modified': lastModified,
      'Cache-Control': 'no-store',
    },
  };
};

export const createPassTransaction: Handler<'createPassTransaction'> = async (request, services) => ({
  status: 201,
  body: await transactions.createTransaction(services, principalOf(request), request.params.id, request.body),
});

export const listPassTransactions: Handler<'listPassTransactions'> = async (request, services) => ({
  status: 200,
  body: await transactions.listTransactions(
    services,
    principalOf(request),
    request.params.id,
    pageRequest(request.query),
    request.query.type,
  ),
});

export const registerWalletDevice: Handler<'registerWalletDevice'> = async (request, services) => {
  const { deviceLibraryIdentifier, passTypeIdentifier, serialNumber } = request.params;
  const pass = await webService.authorisedPass(services, passTypeIdentifier, serialNumber, request.koa.get('Authorization'));
  const created = await webService.register(services, deviceLibraryIdentifier, pass, request.body.pushToken);
  return created ? { status: 201, body: undefined } : { status: 200, body: undefined };
};

export const unregisterWalletDevice: Handler<'unregisterWalletDevice'> = async (request, services) => {
  const { deviceLibraryIdentifier, passTypeIdentifier, serialNumber } = request.params;
  const pass = await webService.authorisedPass(services, passTypeIdentifier, serialNumber, request.koa.get('Authorization'));
  await webService.unregister(services, deviceLibraryIdentifier, pass);
  return { status: 200, body: undefined };
};

export const listWalletDeviceUpdates: Handler<'listWalletDeviceUpdates'> = async (request, services) => {
  const { deviceLibraryIdentifier, passTypeIdentifier } = request.params;
  const updates = await webService.updatedSince(services, deviceLibraryIdentifier, passTypeIdentifier, request.query.passesUpdatedSince);
  return updates ? { status: 200, body: updates } : { status: 204, body: undefined };
};

export const getLatestWalletPass: Handler<'getLatestWalletPass'> = async (request, services) => {
  const { passTypeIdentifier, serialNumber } = request.params;
  const pass = await webService.authorisedPass(services, passTypeIdentifier, serialNumber, request.koa.get('Authorization'));
  const latest = await webService.latest(services, pass, request.koa.get('If-Modified-Since') || undefined);
  if (!latest) return { status: 304, body: undefined };
  return {
    status: 200,
    raw: latest.file,
    contentType: PKPASS,
    headers: { 'Last-Modified': latest.lastModified, 'Cache-Control': 'no-store' },
  };
};

export const logWalletDeviceMessages: Handler<'logWalletDeviceMessages'> = async (request, { logger }) => {
  logger.warn({ logs: request.body.logs }, 'wallet devices report problems with passes');
  return { status: 200, body: undefined };
};
