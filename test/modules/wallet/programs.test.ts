import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';
import { uploadVideo } from '../publishing/support.js';

describeApi('wallet — programs', (t) => {
  const design = () => ({
    profileId: t.owner.profileId,
    name: 'Coffee Club',
    passStyle: 'storeCard',
    organizationName: 'Acme Coffee',
    description: 'Acme Coffee Club loyalty card',
    colors: { foreground: 'rgb(255, 255, 255)', background: 'rgb(60, 36, 21)', label: 'rgb(230, 200, 160)' },
    fields: [
      { key: 'balance', label: 'POINTS', section: 'header', changeMessage: 'You now have %@ points.' },
      { key: 'tier', label: 'TIER', section: 'auxiliary', defaultValue: 'Bronze' },
    ],
  });

  it('creates a program that is not connected yet, and reads it back', async () => {
    const created = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: design() });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ passStyle: 'storeCard', transitType: null, barcodeFormat: 'qr', passCount: 0, iconMediaId: null });
    expect(created.body.vendor).to.deep.equal({
      status: 'not_connected',
      passTypeIdentifier: null,
      teamIdentifier: null,
      certificate: null,
      connectedAt: null,
    });
    expect(created.body.fields[1]).to.deep.equal({
      key: 'tier',
      label: 'TIER',
      section: 'auxiliary',
      defaultValue: 'Bronze',
      changeMessage: null,
    });
    const read = await t.app.api.get(`/wallet/programs/${created.body.id}`, { token: t.owner.key });
    expect(read.body).to.deep.equal(created.body);
  });

  it('requires the transport of a boarding pass, and refuses one for other styles', async () => {
    const missing = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: { ...design(), passStyle: 'boardingPass' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.errors[0].path).to.equal('body/transitType');
    const misplaced = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: { ...design(), transitType: 'air' } });
    expect(misplaced.status).to.equal(400);
    const boarding = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: { ...design(), passStyle: 'boardingPass', transitType: 'train' },
    });
    expect(boarding.status).to.equal(201);
    expect(boarding.body.transitType).to.equal('train');
  });

  it('refuses repeated field keys and a change message without %@', async () => {
    const repeated = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: {
        ...design(),
        fields: [
          { key: 'a', section: 'primary' },
          { key: 'a', section: 'back' },
        ],
      },
    });
    expect(repeated.status).to.equal(400);
    expect(repeated.body.errors[0].path).to.equal('body/fields/1/key');
    const silent = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: { ...design(), fields: [{ key: 'a', section: 'primary', changeMessage: 'Changed!' }] },
    });
    expect(silent.status).to.equal(400);
    expect(silent.body.errors[0].path).to.equal('body/fields/0/changeMessage');
  });

  it('refuses a design image that is not one of the owner’s PNG images', async () => {
    const unknown = await t.app.api.post('/wallet/programs', {
      token: t.owner.key,
      body: { ...design(), iconMediaId: 'media_01jd4g8j9k0m1n2p3q4r5s6t7v' },
    });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.code).to.equal('media_not_found');
  });

  it('refuses a design image of another type with 422 media_type_not_allowed, naming the type taken', async () => {
    const video = await uploadVideo(t.app, t.owner);
    const created = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: { ...design(), iconMediaId: video } });
    expect(created.status).to.equal(422);
    expect(created.body).to.include({
      code: 'media_type_not_allowed',
      detail: `${video} is video/mp4; a pass image must be a PNG image (image/png): upload the image as a PNG and give its id.`,
    });
    expect(created.body.errors).to.deep.equal([
      { path: 'body/iconMediaId', code: 'media_type_not_allowed', message: 'is video/mp4; a pass image must be a PNG image (image/png)' },
    ]);
    const program = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: design() });
    const changed = await t.app.api.patch(`/wallet/programs/${program.body.id}`, { token: t.owner.key, body: { logoMediaId: video } });
    expect(changed.status).to.equal(422);
    expect(changed.body.errors[0]).to.include({ path: 'body/logoMediaId', code: 'media_type_not_allowed' });
  });

  it('changes the design; the pass style stays', async () => {
    const created = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: design() });
    const changed = await t.app.api.patch(`/wallet/programs/${created.body.id}`, {
      token: t.owner.key,
      body: { logoText: 'Acme', barcodeFormat: null, fields: [{ key: 'visits', label: 'VISITS', section: 'primary' }] },
    });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.include({ logoText: 'Acme', barcodeFormat: null, passStyle: 'storeCard' });
    expect(changed.body.fields.map((field: { key: string }) => field.key)).to.deep.equal(['visits']);
  });

  it('answers 404 for another owner’s program', async () => {
    const created = await t.app.api.post('/wallet/programs', { token: t.owner.key, body: design() });
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/wallet/programs/${created.body.id}`, { token: other.key })).status).to.equal(404);
  });

  itPagesByKeyset(t, 'listWalletPrograms', async (count) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await t.app.api.post('/wallet/programs', { token: t.owner.key, body: design() })).body.id);
    return { path: '/wallet/programs', ids: ids.reverse() };
  });
});
