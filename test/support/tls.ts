import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate as a file, for the service to trust (`webhooks.caFile`). */
  caFile: string;
}

let certificate: Promise<TestCertificate> | undefined;

/**
 * One self-signed certificate for 127.0.0.1 per test process, shared by every HTTPS server the tests start (the
 * webhook receiver, the file server), so the service trusts them all through one file. Made once: an RSA key
 * takes a noticeable moment to generate.
 */
export function testCertificate(): Promise<TestCertificate> {
  certificate ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      days: 2,
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 7, ip: '127.0.0.1' },
            { type: 2, value: 'localhost' },
          ],
        },
      ],
    } as never);
    const caFile = join(mkdtempSync(join(tmpdir(), 'socialgate-test-tls-')), 'ca.pem');
    writeFileSync(caFile, pems.cert);
    return { key: pems.private, cert: pems.cert, caFile };
  })();
  return certificate;
}
