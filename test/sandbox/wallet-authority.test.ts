import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { expect } from 'chai';
import forge from 'node-forge';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { positiveSerial } from '../../src/sandbox/wallet/authority.js';

describe('the wallet sandbox authority — certificate serials', () => {
  it('are positive and minimally encoded every time, as OpenSSL insists (a leading zero byte is "illegal padding")', () => {
    for (let n = 0; n < 2000; n += 1) {
      const serial = positiveSerial();
      expect(serial).to.match(/^[0-9a-f]{16}$/);
      const first = Number.parseInt(serial.slice(0, 2), 16);
      expect(first).to.be.within(0x01, 0x7f);
    }
  });

  it('give certificates that OpenSSL reads', () => {
    const keys = forge.pki.rsa.generateKeyPair(1024);
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = positiveSerial();
    cert.validity.notBefore = new Date();
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'serial' }]);
    cert.setIssuer([{ name: 'commonName', value: 'serial' }]);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    expect(new X509Certificate(forge.pki.certificateToPem(cert)).serialNumber.toLowerCase()).to.equal(cert.serialNumber);
  });
});

describe('the wallet sandbox push service — a restart', () => {
  let stateDir: string;
  let sandbox: Sandbox | undefined;

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  });

  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    rmSync(stateDir, { recursive: true, force: true });
  });

  /** The certificate the push service presents, checked against the root the vendor's trust page shows. */
  async function presentedCertificate(): Promise<string> {
    const trust = (await (await fetch(`${sandbox!.url}/wallet-vendor/trust`)).json()) as { rootCertificatePem: string; pushUrl: string };
    const { hostname, port } = new URL(trust.pushUrl);
    const socket = connect({ host: hostname, port: Number(port), ca: trust.rootCertificatePem, ALPNProtocols: ['h2'] });
    await once(socket, 'secureConnect');
    const { fingerprint256 } = socket.getPeerCertificate();
    socket.destroy();
    return fingerprint256;
  }

  it('keeps its TLS certificate, issued by the same root (not a new key made at every start)', async () => {
    sandbox = await startSandbox({ port: 0, stateDir });
    const before = await presentedCertificate();
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, stateDir });
    expect(await presentedCertificate()).to.equal(before);
  });
});
