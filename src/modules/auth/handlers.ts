import { type Handler, principalOf } from '../../http/handler.js';
import { SessionRequiredError } from '../../lib/errors.js';
import { presentOwner } from './present.js';
import type { Principal } from './principal.js';
import * as auth from './service.js';

function present(opened: auth.OpenedSession) {
  return {
    owner: presentOwner(opened.owner),
    session: { id: opened.session.id, token: opened.session.token, expiresAt: opened.session.expiresAt.toISOString() },
  };
}

function sessionOf(principal: Principal): Extract<Principal, { kind: 'session' }> {
  if (principal.kind !== 'session') throw new SessionRequiredError();
  return principal;
}

export const signUp: Handler<'signUp'> = async (request, { db, config }) => ({
  status: 201,
  body: present(await auth.signUp(db, request.body, config.sessionTtlSeconds)),
});

export const logIn: Handler<'logIn'> = async (request, { db, config }) => ({
  status: 200,
  body: present(await auth.logIn(db, request.body, config.sessionTtlSeconds)),
});

export const logOut: Handler<'logOut'> = async (request, { db, principals }) => {
  const { sessionId } = sessionOf(principalOf(request));
  await principals.change(sessionId, () => auth.logOut(db, sessionId));
  return { status: 204, body: undefined };
};

export const getSession: Handler<'getSession'> = async (request, { db }) => {
  const principal = sessionOf(principalOf(request));
  const { owner, session } = await auth.currentSession(db, principal.ownerId, principal.sessionId);
  return {
    status: 200,
    body: {
      owner: presentOwner(owner),
      session: { id: session.id, createdAt: session.createdAt.toISOString(), expiresAt: session.expiresAt.toISOString() },
    },
  };
};
