import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** The sandbox's stand-in for the wallet vendor's certificate authority: a root and a WWDR-like intermediate. */
export interface Authority {
  rootPem: string;
  rootKeyPem: string;
  wwdrPem: string;
  wwdrKeyPem: string;
}

interface Name {
  [shortNameOrOid: string]: string;
}

const UID_OID = '0.9.2342.19200300.100.1.1';
const DAY_MS = 86_400_000;

function attributesOf(name: Name): forge.pki.CertificateField[] {
  return Object.entries(name).map(([key, value]) => (key === 'UID' ? { type: UID_OID, value } : { shortName: key, value }));
}

function rsaKey(pem: string): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
}

/** An RSA key pair made by node's crypto (forge's own key generation is far slower), as forge keys. */
function keyPair(): { publicKey: forge.pki.PublicKey; privateKey: forge.pki.rsa.PrivateKey; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    privateKey: rsaKey(privateKeyPem),
    privateKeyPem,
  };
}

/**
 * A random serial in hex, positive and in the shortest encoding DER allows (the first byte 0x01–0x7f), which
 * OpenSSL insists on: a leading zero byte before a byte under 0x80 is refused as "illegal padding".
 */
export function positiveSerial(): string {
  const serial = randomBytes(8);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  return serial.toString('hex');
}

function certificate(options: {
  subject: Name;
  publicKey: forge.pki.PublicKey;
  issuer: { name: forge.pki.CertificateField[]; key: forge.pki.rsa.PrivateKey } | 'self';
  selfKey?: forge.pki.rsa.PrivateKey;
  validFrom: Date;
  validUntil: Date;
  extensions: object[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = options.publicKey;
  cert.serialNumber = positiveSerial();
  cert.validity.notBefore = options.validFrom;
  cert.validity.notAfter = options.validUntil;
  const subject = attributesOf(options.subject);
  cert.setSubject(subject);
  cert.setIssuer(options.issuer === 'self' ? subject : options.issuer.name);
  cert.setExtensions(options.extensions);
  cert.sign(options.issuer === 'self' ? options.selfKey! : options.issuer.key, forge.md.sha256.create());
  return cert;
}

function authorityCertificate(subject: Name, issuer: { certPem: string; keyPem: string } | null, years: number) {
  const keys = keyPair();
  const now = Date.now();
  const cert = certificate({
    subject,
    publicKey: keys.publicKey,
    issuer: issuer ? { name: forge.pki.certificateFromPem(issuer.certPem).subject.attributes, key: rsaKey(issuer.keyPem) } : 'self',
    selfKey: keys.privateKey,
    validFrom: new Date(now - DAY_MS),
    validUntil: new Date(now + years * 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem };
}

/** A root and an intermediate named like the vendor's (so errors and summaries read as they will for real). */
export function createAuthority(organization = 'Sandbox Vendor Inc.'): Authority {
  const root = authorityCertificate({ CN: 'Sandbox Root CA', O: organization, C: 'US' }, null, 20);
  const wwdr = authorityCertificate(
    { CN: 'Worldwide Developer Relations Certification Authority', OU: 'G4', O: organization, C: 'US' },
    root,
    10,
  );
  return { rootPem: root.certPem, rootKeyPem: root.keyPem, wwdrPem: wwdr.certPem, wwdrKeyPem: wwdr.keyPem };
}

export interface PassTypeCertificateRequest {
  passTypeIdentifier: string;
  teamIdentifier: string;
  organization?: string;
  validFrom?: Date;
  validUntil?: Date;
}

/** A pass type certificate as the vendor issues it: `UID` = pass type, `OU` = team, signed by the intermediate. */
export function issuePassTypeCertificate(
  authority: Pick<Authority, 'wwdrPem' | 'wwdrKeyPem'>,
  request: PassTypeCertificateRequest,
): { certificatePem: string; privateKeyPem: string } {
  const keys = keyPair();
  const now = Date.now();
  const cert = certificate({
    subject: {
      UID: request.passTypeIdentifier,
      CN: `Pass Type ID: ${request.passTypeIdentifier}`,
      OU: request.teamIdentifier,
      O: request.organization ?? 'Sandbox Developer',
      C: 'US',
    },
    publicKey: keys.publicKey,
    issuer: { name: forge.pki.certificateFromPem(authority.wwdrPem).subject.attributes, key: rsaKey(authority.wwdrKeyPem) },
    validFrom: request.validFrom ?? new Date(now - DAY_MS),
    validUntil: request.validUntil ?? new Date(now + 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  });
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: keys.privateKeyPem };
}

/** A TLS certificate and its key, with the end of its validity (ISO 8601). */
export interface ServerCertificate {
  certPem: string;
  keyPem: string;
  validUntil: string;
}

/** The certificate kept from an earlier start while it has a month left to run; else a new one. */
export function serverCertificate(authority: Pick<Authority, 'rootPem' | 'rootKeyPem'>, kept?: ServerCertificate): ServerCertificate {
  return kept && Date.parse(kept.validUntil) - Date.now() > 30 * DAY_MS ? kept : issueServerCertificate(authority);
}

/** The TLS certificate of the sandbox's push service, for 127.0.0.1 and localhost, issued by the root. */
function issueServerCertificate(authority: Pick<Authority, 'rootPem' | 'rootKeyPem'>): ServerCertificate {
  const keys = keyPair();
  const now = Date.now();
  const validUntil = new Date(now + 365 * DAY_MS);
  const cert = certificate({
    subject: { CN: '127.0.0.1', O: 'Sandbox Push Service' },
    publicKey: keys.publicKey,
    issuer: { name: forge.pki.certificateFromPem(authority.rootPem).subject.attributes, key: rsaKey(authority.rootKeyPem) },
    validFrom: new Date(now - DAY_MS),
    validUntil,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem, validUntil: validUntil.toISOString() };
}

/** The certificate and key as one `.p12` file (3DES, as keychains export it), base64-encoded. */
export function toP12Base64(certificatePem: string, privateKeyPem: string, passphrase: string): string {
  const p12 = forge.pkcs12.toPkcs12Asn1(rsaKey(privateKeyPem), [forge.pki.certificateFromPem(certificatePem)], passphrase, {
    algorithm: '3des',
  });
  return forge.util.encode64(forge.asn1.toDer(p12).getBytes());
}

/** The key encrypted with a passphrase (PKCS#8), as a developer may export it. */
export function encryptedKeyPem(privateKeyPem: string, passphrase: string): string {
  return forge.pki.encryptRsaPrivateKey(rsaKey(privateKeyPem), passphrase, { algorithm: 'aes256' });
}
