import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner } from '../../support/owners.js';

describe('auth — owners and sessions', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.close();
  });

  describe('signUp — POST /auth/signup', () => {
    it('creates the owner and opens a session whose token works', async () => {
      const signUp = await app.api.post('/auth/signup', {
        body: { email: 'Ada@Example.com', password: 'correct horse battery', name: 'Ada' },
      });
      expect(signUp.status).to.equal(201);
      expect(signUp.body.owner).to.include({ email: 'ada@example.com', name: 'Ada' });
      expect(signUp.body.session.token).to.match(/^sgs_[0-9A-Za-z]{43}$/);
      const session = await app.api.get('/auth/session', { token: signUp.body.session.token });
      expect(session.status).to.equal(200);
      expect(session.body.owner.id).to.equal(signUp.body.owner.id);
    });

    it('stores the password as an Argon2id hash and the session token as a hash', async () => {
      const signUp = await app.api.post('/auth/signup', { body: { email: 'hash@example.com', password: 'correct horse battery' } });
      const owner = await app.services.db('owners').where({ id: signUp.body.owner.id }).first();
      expect(owner.passwordHash).to.match(/^\$argon2id\$/);
      const session = await app.services.db('sessions').where({ ownerId: owner.id }).first();
      expect(session.tokenHash).to.have.length(64).and.not.equal(signUp.body.session.token);
    });

    it('refuses a taken email with 409 email_taken', async () => {
      await app.api.post('/auth/signup', { body: { email: 'twice@example.com', password: 'correct horse battery' } });
      const again = await app.api.post('/auth/signup', { body: { email: 'TWICE@example.com', password: 'another long password' } });
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('email_taken');
    });

    it('lists every invalid member of the request', async () => {
      const response = await app.api.post('/auth/signup', { body: { email: 'not-an-email', password: 'short', admin: true } });
      expect(response.status).to.equal(400);
      expect(response.body.code).to.equal('validation_failed');
      const paths = response.body.errors.map((e: { path: string }) => e.path);
      expect(paths).to.include.members(['body/email', 'body/password', 'body/admin']);
    });
  });

  describe('logIn — POST /auth/login', () => {
    it('opens a new session for the right password', async () => {
      const owner = await newOwner(app.api);
      const response = await app.api.post('/auth/login', { body: { email: owner.email, password: owner.password } });
      expect(response.status).to.equal(200);
      expect(response.body.session.token).to.not.equal(owner.session);
    });

    it('answers 401 invalid_credentials for a wrong password and for an unknown email alike', async () => {
      const owner = await newOwner(app.api);
      const wrong = await app.api.post('/auth/login', { body: { email: owner.email, password: 'not the password' } });
      const unknown = await app.api.post('/auth/login', { body: { email: 'nobody@example.com', password: 'not the password' } });
      for (const response of [wrong, unknown]) {
        expect(response.status).to.equal(401);
        expect(response.body.code).to.equal('invalid_credentials');
      }
    });
  });

  describe('logOut — POST /auth/logout', () => {
    it('ends the session: its token is refused with token_revoked', async () => {
      const owner = await newOwner(app.api);
      expect((await app.api.post('/auth/logout', { token: owner.session })).status).to.equal(204);
      const after = await app.api.get('/profiles', { token: owner.session });
      expect(after.status).to.equal(401);
      expect(after.body.code).to.equal('token_revoked');
    });
  });

  describe('bearer tokens', () => {
    it('answers 401 authentication_required without a token', async () => {
      const response = await app.api.get('/profiles');
      expect(response.status).to.equal(401);
      expect(response.body.code).to.equal('authentication_required');
      expect(response.headers.get('www-authenticate')).to.equal('Bearer');
    });

    it('answers 401 invalid_token for an unknown or malformed token', async () => {
      for (const token of ['sgs_unknown', 'sgk_unknown', 'garbage']) {
        const response = await app.api.get('/profiles', { token });
        expect(response.status, token).to.equal(401);
        expect(response.body.code, token).to.equal('invalid_token');
      }
    });

    it('answers 401 token_expired for an expired session', async () => {
      const owner = await newOwner(app.api);
      const session = await app.services.db('sessions').where({ ownerId: owner.ownerId }).first('id');
      // Changed behind the service's back: the change is announced all the same, and heard before the next request.
      await app.services.principals.change(session.id, () =>
        app.services
          .db('sessions')
          .where({ id: session.id })
          .update({ expiresAt: new Date(Date.now() - 1000) }),
      );
      const response = await app.api.get('/profiles', { token: owner.session });
      expect(response.status).to.equal(401);
      expect(response.body.code).to.equal('token_expired');
    });
  });
});
