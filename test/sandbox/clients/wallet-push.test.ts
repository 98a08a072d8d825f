import { expect } from 'chai';
import { connect, type ClientHttp2Session } from 'node:http2';
import { sandboxForFile } from './sandbox.js';

const PASS_TYPE = 'pass.example.loyalty';

/**
 * The wallet vendor's push service takes a provider by its pass type certificate (a TLS client certificate). The
 * APNs clients on npm that speak HTTP/2 (apns2) authenticate by a signing key's token only, so the calls are made
 * with node:http2 as Apple documents a certificate-based connection: `POST /3/device/<token>`, `apns-topic`.
 */
describe('sandbox wallet push service — over HTTP/2 with a pass type certificate, as Apple documents it', () => {
  const sandbox = sandboxForFile();
  let session: ClientHttp2Session;
  let token: string;

  before('take a certificate and a phone holding a push token', async () => {
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${sandbox.url()}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, string>;
    const issued = await post('/_sandbox/wallet/certificates', { passTypeIdentifier: PASS_TYPE, teamIdentifier: 'TEAM123456' });
    const trust = (await (await fetch(`${sandbox.url()}/wallet-vendor/trust`)).json()) as Record<string, string>;
    session = connect(trust.pushUrl!, {
      cert: `${issued.certificatePem}${issued.wwdrCertificatePem}`,
      key: issued.privateKeyPem,
      ca: trust.rootCertificatePem,
    });
    token = (await post('/_sandbox/wallet/phones', {})).pushToken!;
  });
  after(() => session?.close());

  /** A push as the service sends one: its status and reason. */
  function push(path: string, topic: string, payload: string, method = 'POST'): Promise<{ status: number; reason: string | null }> {
    return new Promise((resolve, reject) => {
      const request = session.request({ ':method': method, ':path': path, 'apns-topic': topic, 'content-type': 'application/json' });
      let status = 0;
      let body = '';
      request.on('response', (headers) => (status = Number(headers[':status'])));
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => resolve({ status, reason: body ? (JSON.parse(body) as { reason: string }).reason : null }));
      request.on('error', reject);
      request.end(method === 'POST' ? payload : undefined);
    });
  }

  it('delivers {} to a token it issued, and refuses one it never did: 400 BadDeviceToken', async () => {
    expect(await push(`/3/device/${token}`, PASS_TYPE, '{}')).to.deep.equal({ status: 200, reason: null });
    expect(await push('/3/device/0123abcd', PASS_TYPE, '{}')).to.deep.equal({ status: 400, reason: 'BadDeviceToken' });
  });

  it('refuses a topic the certificate is not for: 400 TopicDisallowed', async () => {
    expect(await push(`/3/device/${token}`, 'pass.example.other', '{}')).to.deep.equal({ status: 400, reason: 'TopicDisallowed' });
  });

  it('refuses an empty payload (400 PayloadEmpty) and one over 4 KB (413 PayloadTooLarge)', async () => {
    expect(await push(`/3/device/${token}`, PASS_TYPE, '')).to.deep.equal({ status: 400, reason: 'PayloadEmpty' });
    const large = JSON.stringify({ aps: {}, pad: 'x'.repeat(5000) });
    expect(await push(`/3/device/${token}`, PASS_TYPE, large)).to.deep.equal({ status: 413, reason: 'PayloadTooLarge' });
  });

  it('answers a wrong path 404 BadPath, and another method on a device 405 MethodNotAllowed', async () => {
    expect(await push(`/3/devices/${token}`, PASS_TYPE, '{}')).to.deep.equal({ status: 404, reason: 'BadPath' });
    expect(await push(`/3/device/${token}`, PASS_TYPE, '', 'GET')).to.deep.equal({ status: 405, reason: 'MethodNotAllowed' });
  });
});
