import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import forge from 'node-forge';
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
