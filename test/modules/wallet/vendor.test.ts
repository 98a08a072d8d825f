import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { quiescent } from '../../support/wait.js';

describeApi('wallet — vendor connection', (t) => {
  const { wallet } = t.sandbox;

  async function newProgram(): Promise<string> {
    const created = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, name: 'Club', passStyle: 'coupon', organizationName: 'Acme', description: 'A coupon' },
    });
    return created.body.id as string;
  }

  async function upload(programId: string, body: Record<string, unknown>) {
    return t.app.api.post(`/wallet/programs/${programId}/vendor/certificate`, { token: t.owner.key, body });
  }

  async function connectedEvents(): Promise<unknown[]> {
    await quiescent(t.app);
    const rows = await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'program.vendor.connected' });
    return rows.map((row: { data: unknown }) => row.data);
  }

  it('connects with identifiers, then the vendor’s certificate; emits program.vendor.connected once', async () => {
    const programId = await newProgram();
    const identifiers = wallet.newIdentifiers();
    const connect = await t.app.api.post(`/wallet/programs/${programId}/vendor/connect`, { token: t.owner.key, body: identifiers });
    expect(connect.body).to.include({ status: 'awaiting_certificate', ...identifiers });
    const issued = await wallet.issueCertificate(identifiers);
    const uploaded = await upload(programId, { format: 'pem', certificatePem: issued.certificatePem, privateKeyPem: issued.privateKeyPem });
    expect(uploaded.status).to.equal(200);
    expect(uploaded.body.status).to.equal('connected');
    expect(uploaded.body.certificate.subject).to.include(`UID=${identifiers.passTypeIdentifier}`);
    expect(uploaded.body.certificate.issuer).to.include('Worldwide Developer Relations');
    const status = await t.app.api.get(`/wallet/programs/${programId}/vendor/status`, { token: t.owner.key });
    expect(status.body).to.deep.equal(uploaded.body);
    // The same identifiers again change nothing and announce nothing more.
    await t.app.api.post(`/wallet/programs/${programId}/vendor/connect`, { token: t.owner.key, body: identifiers });
    const events = await connectedEvents();
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ programId, ...identifiers, certificateExpiresAt: uploaded.body.certificate.expiresAt });
  });

  it('takes a .p12 file with its passphrase, and the identifiers from the certificate', async () => {
    const programId = await newProgram();
    const identifiers = wallet.newIdentifiers();
    const issued = await wallet.issueCertificate({ ...identifiers, passphrase: 'correct horse' });
    const wrong = await upload(programId, { format: 'p12', p12Base64: issued.p12Base64, passphrase: 'wrong horse' });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.errors[0].code).to.equal('wrong_passphrase');
    const uploaded = await upload(programId, { format: 'p12', p12Base64: issued.p12Base64, passphrase: 'correct horse' });
    expect(uploaded.body).to.include({ status: 'connected', ...identifiers });
  });

  it('decrypts an encrypted key with its passphrase, and says when it is missing', async () => {
    const programId = await newProgram();
    const identifiers = wallet.newIdentifiers();
    const issued = await wallet.issueCertificate({ ...identifiers, passphrase: 'sesame' });
    const missing = await upload(programId, { format: 'pem', certificatePem: issued.certificatePem, privateKeyPem: issued.privateKeyPem });
    expect(missing.body.errors[0].code).to.equal('wrong_passphrase');
    const uploaded = await upload(programId, {
      format: 'pem',
      certificatePem: issued.certificatePem,
      privateKeyPem: issued.privateKeyPem,
      privateKeyPassphrase: 'sesame',
    });
    expect(uploaded.body.status).to.equal('connected');
  });

  it('refuses, naming the check, what a phone would refuse', async () => {
    const programId = await newProgram();
    const identifiers = wallet.newIdentifiers();
    await t.app.api.post(`/wallet/programs/${programId}/vendor/connect`, { token: t.owner.key, body: identifiers });
    const good = await wallet.issueCertificate(identifiers);
    const other = await wallet.issueCertificate(identifiers);
    const cases: Array<[string, Record<string, unknown>]> = [
      ['key_mismatch', { certificatePem: good.certificatePem, privateKeyPem: other.privateKeyPem }],
      ['expired', await pem({ ...identifiers, validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' })],
      ['not_yet_valid', await pem({ ...identifiers, validFrom: '2099-01-01T00:00:00Z', validUntil: '2100-01-01T00:00:00Z' })],
      ['untrusted_issuer', await pem({ ...identifiers, issuer: 'stranger' })],
      ['pass_type_mismatch', await pem({ ...identifiers, passTypeIdentifier: `${identifiers.passTypeIdentifier}.other` })],
      ['team_mismatch', await pem({ ...identifiers, teamIdentifier: 'ZZZZZZZZZZ' })],
      [
        'unreadable',
        {
          certificatePem: `-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\n-----END CERTIFICATE-----\n`,
          privateKeyPem: good.privateKeyPem,
        },
      ],
    ];
    for (const [check, body] of cases) {
      const refused = await upload(programId, { format: 'pem', ...body });
      expect(refused.status, check).to.equal(422);
      expect(refused.body.code, check).to.equal('wallet_certificate_invalid');
      expect(refused.body.errors[0].code, `${check}: ${refused.body.detail}`).to.equal(check);
    }
    // An intermediate of the stranger's own making is no way around the vendor's root.
    const stranger = await wallet.issueCertificate({ ...identifiers, issuer: 'stranger' });
    const smuggled = await upload(programId, {
      format: 'pem',
      certificatePem: stranger.certificatePem,
      privateKeyPem: stranger.privateKeyPem,
      wwdrCertificatePem: stranger.wwdrCertificatePem,
    });
    expect(smuggled.body.errors[0].code).to.equal('untrusted_issuer');
    const status = await t.app.api.get(`/wallet/programs/${programId}/vendor/status`, { token: t.owner.key });
    expect(status.body.status).to.equal('awaiting_certificate');
    expect(await connectedEvents()).to.have.length(0);

    async function pem(request: Parameters<typeof wallet.issueCertificate>[0]) {
      const issued = await wallet.issueCertificate(request);
      return { certificatePem: issued.certificatePem, privateKeyPem: issued.privateKeyPem };
    }
  });

  it('drops a stored certificate when the identifiers change to others', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const changed = await t.app.api.post(`/wallet/programs/${programId}/vendor/connect`, {
      token: t.owner.key,
      body: wallet.newIdentifiers(),
    });
    expect(changed.body).to.include({ status: 'awaiting_certificate', certificate: null });
  });

  it('keeps the key out of every answer and stores it sealed', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const read = await t.app.api.get(`/wallet/programs/${programId}`, { token: t.owner.key });
    expect(read.text).not.to.include('PRIVATE KEY');
    const row = await t.app.services.db('walletPrograms').where({ id: programId }).first();
    expect(row.sealedPrivateKey).to.match(/^v1\./);
    expect(row.sealedPrivateKey).not.to.include('PRIVATE KEY');
  });
});
