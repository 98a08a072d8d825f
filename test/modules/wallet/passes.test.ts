import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { quiescent } from '../../support/wait.js';

describeApi('wallet — passes', (t) => {
  const { wallet } = t.sandbox;

  async function newPass(programId: string, body: Record<string, unknown> = {}) {
    const created = await t.app.api.post('/wallet/passes', {
      token: t.owner.key,
      body: { programId, holder: { name: 'Lena Fischer', email: 'Lena@Cafe.example' }, fields: { memberName: 'Lena' }, ...body },
    });
    expect(created.status, created.text).to.equal(201);
    return created.body;
  }

  /** The unzipped package in a folder of its own (removed after the test). */
  async function downloaded(url: string): Promise<{ dir: string; response: Response }> {
    const response = await fetch(url);
    const dir = mkdtempSync(join(tmpdir(), 'pkpass-'));
    writeFileSync(join(dir, 'pass.pkpass'), Buffer.from(await response.arrayBuffer()));
    execFileSync('unzip', ['-q', 'pass.pkpass', '-d', 'files'], { cwd: dir });
    return { dir, response };
  }

  it('issues a pass whose download is a .pkpass that openssl verifies, every file in its manifest', async () => {
    const { programId, passTypeIdentifier, teamIdentifier } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId, { serialNumber: 'ACME-000128', balance: 50 });
    expect(pass).to.include({ serialNumber: 'ACME-000128', balance: 50, voided: false, barcodeMessage: 'ACME-000128' });
    expect(pass.downloadUrl).to.match(new RegExp(`/wallet/passes/${pass.id}/download\\?token=[A-Za-z0-9_-]{43}$`));
    const { dir, response } = await downloaded(pass.downloadUrl);
    try {
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('application/vnd.apple.pkpass');
      expect(response.headers.get('cache-control')).to.equal('no-store');
      expect(response.headers.get('content-disposition')).to.equal('attachment; filename="ACME-000128.pkpass"');
      const files = join(dir, 'files');
      writeFileSync(join(dir, 'root.pem'), await wallet.rootCertificatePem());
      execFileSync(
        'openssl',
        [
          'smime',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          'signature',
          '-content',
          'manifest.json',
          '-CAfile',
          join(dir, 'root.pem'),
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ],
        { cwd: files, stdio: 'pipe' },
      );
      const manifest = JSON.parse(readFileSync(join(files, 'manifest.json'), 'utf8')) as Record<string, string>;
      const packaged = readdirSync(files).filter((name) => name !== 'manifest.json' && name !== 'signature');
      expect(Object.keys(manifest).sort()).to.deep.equal(packaged.sort());
      for (const name of packaged)
        expect(manifest[name], name).to.equal(
          createHash('sha1')
            .update(readFileSync(join(files, name)))
            .digest('hex'),
        );
      expect(packaged).to.include.members(['pass.json', 'icon.png', 'icon@2x.png', 'icon@3x.png']);
      const passJson = JSON.parse(readFileSync(join(files, 'pass.json'), 'utf8'));
      expect(passJson).to.include({
        formatVersion: 1,
        passTypeIdentifier,
        teamIdentifier,
        serialNumber: 'ACME-000128',
        organizationName: 'Acme Coffee',
      });
      expect(passJson.webServiceURL).to.equal(`${t.app.services.config.publicUrl}/wallet/ws`);
      expect(passJson.authenticationToken).to.have.length.of.at.least(16);
      expect(passJson.storeCard.headerFields).to.deep.equal([
        { key: 'balance', label: 'POINTS', value: '50', changeMessage: 'You now have %@ points.' },
      ]);
      expect(passJson.storeCard.auxiliaryFields[0]).to.include({ key: 'tier', value: 'Bronze' });
      expect(passJson.barcodes[0]).to.include({ format: 'PKBarcodeFormatQR', message: 'ACME-000128' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the same 404 for a wrong token, and the link is not the pass id alone', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId);
    const wrong = await t.app.api.get(`/wallet/passes/${pass.id}/download?token=${'A'.repeat(43)}`);
    expect(wrong.status).to.equal(404);
    const none = await t.app.api.get(`/wallet/passes/${pass.id}/download`);
    expect(none.status).to.equal(400);
  });

  it('builds a boarding pass with its transport type', async () => {
    const { programId } = await wallet.connectedProgram(t.owner, {
      passStyle: 'boardingPass',
      transitType: 'train',
      fields: [
        { key: 'from', label: 'FROM', section: 'primary' },
        { key: 'to', label: 'TO', section: 'primary' },
      ],
    });
    const pass = await newPass(programId, { fields: { from: 'Berlin', to: 'Hamburg' } });
    const { dir } = await downloaded(pass.downloadUrl);
    try {
      const passJson = JSON.parse(readFileSync(join(dir, 'files', 'pass.json'), 'utf8'));
      expect(passJson.boardingPass.transitType).to.equal('PKTransitTypeTrain');
      expect(passJson.boardingPass.primaryFields.map((field: { value: string }) => field.value)).to.deep.equal(['Berlin', 'Hamburg']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a pass of a program that cannot sign, a field the program lacks, a serial number taken', async () => {
    const unconnected = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, name: 'Club', passStyle: 'generic', organizationName: 'Acme', description: 'A card' },
    });
    const refused = await t.app.api.post('/wallet/passes', { token: t.owner.key, body: { programId: unconnected.body.id } });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('wallet_vendor_not_connected');
    const { programId } = await wallet.connectedProgram(t.owner);
    const unknownField = await t.app.api.post('/wallet/passes', { token: t.owner.key, body: { programId, fields: { shoeSize: '42' } } });
    expect(unknownField.status).to.equal(400);
    const balanceField = await t.app.api.post('/wallet/passes', { token: t.owner.key, body: { programId, fields: { balance: '1000' } } });
    expect(balanceField.status).to.equal(400);
    await newPass(programId, { serialNumber: 'SAME-1' });
    const taken = await t.app.api.post('/wallet/passes', { token: t.owner.key, body: { programId, serialNumber: 'SAME-1' } });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('wallet_serial_number_taken');
  });

  it('changes a pass’s own values and emits pass.updated with what changed', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId);
    const changed = await t.app.api.patch(`/wallet/passes/${pass.id}`, {
      token: t.owner.key,
      body: { fields: { tier: 'Gold', memberName: null }, barcodeMessage: 'NEW-CODE' },
    });
    expect(changed.status).to.equal(200);
    expect(changed.body.fields).to.deep.equal({ tier: 'Gold' });
    expect(changed.body.barcodeMessage).to.equal('NEW-CODE');
    const unchanged = await t.app.api.patch(`/wallet/passes/${pass.id}`, { token: t.owner.key, body: { fields: { tier: 'Gold' } } });
    expect(unchanged.status).to.equal(200);
    await quiescent(t.app);
    const events = await t.app.services.db('events').where({ ownerId: t.owner.ownerId, name: 'pass.updated' });
    expect(events.map((event: { data: unknown }) => event.data)).to.deep.equal([
      {
        passId: pass.id,
        programId,
        serialNumber: pass.serialNumber,
        changedFields: ['fields.tier', 'fields.memberName', 'barcodeMessage'],
        transactionId: null,
      },
    ]);
  });

  it('deletes a pass: 404 for the API and its link, pass.created and pass.deleted emitted', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId);
    expect((await t.app.api.delete(`/wallet/passes/${pass.id}`, { token: t.owner.key })).status).to.equal(204);
    expect((await t.app.api.get(`/wallet/passes/${pass.id}`, { token: t.owner.key })).status).to.equal(404);
    expect((await fetch(pass.downloadUrl)).status).to.equal(404);
    const listed = await t.app.api.get(`/wallet/programs/${programId}/passes`, { token: t.owner.key });
    expect(listed.body.data).to.have.length(0);
    const program = await t.app.api.get(`/wallet/programs/${programId}`, { token: t.owner.key });
    expect(program.body.passCount).to.equal(0);
    await quiescent(t.app);
    const events = await t.app.services
      .db('events')
      .where({ ownerId: t.owner.ownerId })
      .whereIn('name', ['pass.created', 'pass.deleted'])
      .orderBy('id');
    expect(events.map((event: { name: string; data: { downloadUrl?: string } }) => [event.name, event.data])).to.deep.equal([
      ['pass.created', { passId: pass.id, programId, serialNumber: pass.serialNumber, downloadUrl: events[0].data.downloadUrl }],
      ['pass.deleted', { passId: pass.id, programId, serialNumber: pass.serialNumber }],
    ]);
    // The identifiers can no longer change: devices hold the deleted pass under them.
    const reconnect = await t.app.api.post(`/wallet/programs/${programId}/vendor/connect`, {
      token: t.owner.key,
      body: wallet.newIdentifiers(),
    });
    expect(reconnect.status).to.equal(409);
    expect(reconnect.body.code).to.equal('wallet_program_has_passes');
  });

  it('pass.created brings the hook the pass’s download link, signed, while no row holds the link in clear', async () => {
    const hook = await t.app.api.post('/hooks', { token: t.owner.key, body: { url: `${t.inbox.url}/passes`, events: ['pass.created'] } });
    expect(hook.status).to.equal(201);
    const { programId } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId);
    const [request] = await t.inbox.waitFor(1);
    expect(new Webhook(hook.body.secret).verify(request!.rawBody, request!.headers as Record<string, string>)).to.be.an('object');
    expect(t.inbox.events()[0]!.data).to.deep.equal({
      passId: pass.id,
      programId,
      serialNumber: pass.serialNumber,
      downloadUrl: pass.downloadUrl,
    });
    const token = new URL(pass.downloadUrl).searchParams.get('token')!;
    const { rows } = await t.app.services.db.raw(
      `SELECT (SELECT count(*) FROM events WHERE owner_id = ? AND data::text LIKE ?)::int AS events,
              (SELECT count(*) FROM deliveries WHERE owner_id = ? AND body LIKE ?)::int AS deliveries`,
      [t.owner.ownerId, `%${token}%`, t.owner.ownerId, `%${token}%`],
    );
    expect(rows[0]).to.deep.equal({ events: 0, deliveries: 0 });
  });

  it('finds a holder’s pass by serial number or email', async () => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const pass = await newPass(programId, { serialNumber: 'FIND-ME' });
    await newPass(programId, { holder: { email: 'someone@else.example' } });
    const bySerial = await t.app.api.get(`/wallet/programs/${programId}/passes?serialNumber=FIND-ME`, { token: t.owner.key });
    expect(bySerial.body.data.map((found: { id: string }) => found.id)).to.deep.equal([pass.id]);
    const byEmail = await t.app.api.get(`/wallet/programs/${programId}/passes?email=lena@cafe.example`, { token: t.owner.key });
    expect(byEmail.body.data.map((found: { id: string }) => found.id)).to.deep.equal([pass.id]);
  });

  itPagesByKeyset(t, 'listWalletPasses', async (count) => {
    const { programId } = await wallet.connectedProgram(t.owner);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await newPass(programId)).id);
    return { path: `/wallet/programs/${programId}/passes`, ids: ids.reverse() };
  });
});
