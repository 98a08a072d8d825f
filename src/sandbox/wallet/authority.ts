import { constants, createPrivateKey, type KeyObject, privateEncrypt, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { takeKeyPair } from './keys-ahead.js';

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

/**
 * An RSA key pair made by node's crypto in its thread pool, off the event loop (forge's own key generation is far
 * slower, and a synchronous one held a first start's event loop for about 0.1 s per key), maybe as the process started.
 */
async function keyPair(): Promise<{ publicKey: forge.pki.PublicKey; privateKey: KeyObject; privateKeyPem: string }> {
  const { publicKey, privateKey } = await takeKeyPair();
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** DER of a SHA-256 DigestInfo up to the digest itself (RFC 8017, 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * What forge's `cert.sign` asks of a key, an RSASSA-PKCS1-v1_5 signature of the digest it made, given by node's
 * crypto: forge's own, in JavaScript, took about 70 ms a certificate. The signature is the same.
 */
function nodeSigner(key: KeyObject): forge.pki.rsa.PrivateKey {
  const sign = (md: forge.md.MessageDigest) =>
    privateEncrypt(
      { key, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')]),
    ).toString('binary');
  return { sign } as unknown as forge.pki.rsa.PrivateKey;
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

type Keys = Awaited<ReturnType<typeof keyPair>>;

/** The certificate that signs, and its key. */
interface Issuer {
  certPem: string;
  keyPem: string;
}

function certificate(options: {
  subject: Name;
  keys: Keys;
  issuer: Issuer | 'self';
  validFrom: Date;
  validUntil: Date;
  extensions: object[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = options.keys.publicKey;
  cert.serialNumber = positiveSerial();
  cert.validity.notBefore = options.validFrom;
  cert.validity.notAfter = options.validUntil;
  const subject = attributesOf(options.subject);
  cert.setSubject(subject);
  const { issuer } = options;
  cert.setIssuer(issuer === 'self' ? subject : forge.pki.certificateFromPem(issuer.certPem).subject.attributes);
  cert.setExtensions(options.extensions);
  cert.sign(nodeSigner(issuer === 'self' ? options.keys.privateKey : createPrivateKey(issuer.keyPem)), forge.md.sha256.create());
  return cert;
}

function authorityCertificate(subject: Name, keys: Keys, issuer: Issuer | 'self', years: number): Issuer {
  const now = Date.now();
  const cert = certificate({
    subject,
    keys,
    issuer,
    validFrom: new Date(now - DAY_MS),
    validUntil: new Date(now + years * 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem };
}

/**
 * A root and an intermediate named like the vendor's (so errors and summaries read as they will for real); their
 * keys are made at the same time.
 */
export async function createAuthority(organization = 'Sandbox Vendor Inc.'): Promise<Authority> {
  const [rootKeys, wwdrKeys] = await Promise.all([keyPair(), keyPair()]);
  const root = authorityCertificate({ CN: 'Sandbox Root CA', O: organization, C: 'US' }, rootKeys, 'self', 20);
  const wwdr = authorityCertificate(
    { CN: 'Worldwide Developer Relations Certification Authority', OU: 'G4', O: organization, C: 'US' },
    wwdrKeys,
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
export async function issuePassTypeCertificate(
  authority: Pick<Authority, 'wwdrPem' | 'wwdrKeyPem'>,
  request: PassTypeCertificateRequest,
): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const keys = await keyPair();
  const now = Date.now();
  const cert = certificate({
    subject: {
      UID: request.passTypeIdentifier,
      CN: `Pass Type ID: ${request.passTypeIdentifier}`,
      OU: request.teamIdentifier,
      O: request.organization ?? 'Sandbox Developer',
      C: 'US',
    },
    keys,
    issuer: { certPem: authority.wwdrPem, keyPem: authority.wwdrKeyPem },
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

/**
 * The certificate kept from an earlier start while it has a month left to run; else a new one, its key made while
 * the authority is.
 */
export async function serverCertificate(
  authority: Promise<Pick<Authority, 'rootPem' | 'rootKeyPem'>>,
  kept?: ServerCertificate,
): Promise<ServerCertificate> {
  if (kept && Date.parse(kept.validUntil) - Date.now() > 30 * DAY_MS) return kept;
  const [root, keys] = await Promise.all([authority, keyPair()]);
  return issueServerCertificate(root, keys);
}

/** The TLS certificate of the sandbox's push service, for 127.0.0.1 and localhost, issued by the root. */
function issueServerCertificate(root: Pick<Authority, 'rootPem' | 'rootKeyPem'>, keys: Keys): ServerCertificate {
  const now = Date.now();
  const validUntil = new Date(now + 365 * DAY_MS);
  const cert = certificate({
    subject: { CN: '127.0.0.1', O: 'Sandbox Push Service' },
    keys,
    issuer: { certPem: root.rootPem, keyPem: root.rootKeyPem },
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
