import forge from 'node-forge';
import { type CertificateCheck, WalletCertificateInvalidError } from './errors.js';

type Upload =
  | { format: 'pem'; certificatePem: string; privateKeyPem: string; privateKeyPassphrase?: string; wwdrCertificatePem?: string }
  | { format: 'p12'; p12Base64: string; passphrase?: string; wwdrCertificatePem?: string };

/** A certificate that passed every check a device makes, with its key decrypted (sealed before it is stored). */
export interface CheckedCertificate {
  certificatePem: string;
  privateKeyPem: string;
  wwdrPem: string;
  passTypeIdentifier: string;
  teamIdentifier: string | null;
  summary: { subject: string; issuer: string; serialNumber: string; notBefore: string; expiresAt: string };
  expiresAt: Date;
}

const UID_OID = '0.9.2342.19200300.100.1.1';

function refuse(check: CertificateCheck, detail: string): never {
  throw new WalletCertificateInvalidError(check, detail);
}

/**
 * Reads an uploaded pass type certificate and its key (PEM, or PKCS#12 including the legacy RC2/3DES kind) and
 * checks what a phone will check of the passes it signs: the key is the certificate's, it is valid now, it was
 * issued by the vendor's intermediate (the one given, else `trust.wwdrPem`) which chains to the vendor's root, and
 * it names the pass type (`UID`) and team (`OU`) expected, when they are.
 */
export function checkCertificate(
  upload: Upload,
  trust: { rootPem: string; wwdrPem: string },
  expected: { passTypeIdentifier: string | null; teamIdentifier: string | null },
  now = new Date(),
): CheckedCertificate {
  const { certificate, key } = upload.format === 'pem' ? readPem(upload) : readP12(upload);
  const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
  if (!publicKey.n || !key.n || publicKey.n.compareTo(key.n) !== 0 || publicKey.e.compareTo(key.e) !== 0) {
    refuse('key_mismatch', 'The private key does not belong to the certificate.');
  }
  if (certificate.validity.notBefore > now) {
    refuse('not_yet_valid', `The certificate is valid only from ${certificate.validity.notBefore.toISOString()}.`);
  }
  if (certificate.validity.notAfter <= now) {
    refuse(
      'expired',
      `The certificate expired at ${certificate.validity.notAfter.toISOString()}; renew it in the vendor's developer account.`,
    );
  }
  const wwdrPem = upload.wwdrCertificatePem ?? trust.wwdrPem;
  checkChain(certificate, wwdrPem, trust.rootPem);
  const passTypeIdentifier =
    attribute(certificate.subject, UID_OID) ??
    refuse('no_pass_type', 'The certificate names no pass type (no UID in its subject); it is not a pass type certificate.');
  if (expected.passTypeIdentifier && passTypeIdentifier !== expected.passTypeIdentifier) {
    refuse('pass_type_mismatch', `The certificate is for ${passTypeIdentifier}, but the program uses ${expected.passTypeIdentifier}.`);
  }
  const teamIdentifier = attribute(certificate.subject, forge.pki.oids.organizationalUnitName!) ?? null;
  if (expected.teamIdentifier && teamIdentifier !== expected.teamIdentifier) {
    refuse(
      'team_mismatch',
      `The certificate belongs to team ${teamIdentifier ?? '(none)'}, but the program uses ${expected.teamIdentifier}.`,
    );
  }
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    privateKeyPem: forge.pki.privateKeyToPem(key),
    wwdrPem,
    passTypeIdentifier,
    teamIdentifier,
    summary: {
      subject: distinguishedName(certificate.subject),
      issuer: distinguishedName(certificate.issuer),
      serialNumber: certificate.serialNumber.toUpperCase(),
      notBefore: certificate.validity.notBefore.toISOString(),
      expiresAt: certificate.validity.notAfter.toISOString(),
    },
    expiresAt: certificate.validity.notAfter,
  };
}

function readPem(upload: Extract<Upload, { format: 'pem' }>): { certificate: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } {
  let certificate: forge.pki.Certificate;
  try {
    certificate = forge.pki.certificateFromPem(upload.certificatePem);
  } catch {
    refuse('unreadable', 'The certificate is not a readable PEM certificate (an RSA pass type certificate is expected).');
  }
  if (/BEGIN EC PRIVATE KEY/.test(upload.privateKeyPem))
    refuse('unsupported_key', 'Pass type certificates have RSA keys; this is an EC key.');
  const encrypted = /BEGIN ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(upload.privateKeyPem);
  if (encrypted && !upload.privateKeyPassphrase) refuse('wrong_passphrase', 'The private key is encrypted; send its privateKeyPassphrase.');
  let key: forge.pki.rsa.PrivateKey | null = null;
  try {
    key = encrypted
      ? (forge.pki.decryptRsaPrivateKey(upload.privateKeyPem, upload.privateKeyPassphrase) as forge.pki.rsa.PrivateKey | null)
      : (forge.pki.privateKeyFromPem(upload.privateKeyPem) as forge.pki.rsa.PrivateKey);
  } catch {
    key = null;
  }
  if (!key) {
    if (encrypted) refuse('wrong_passphrase', 'The private key cannot be decrypted with this passphrase.');
    refuse('unreadable', 'The private key is not a readable RSA private key.');
  }
  return { certificate, key };
}

function readP12(upload: Extract<Upload, { format: 'p12' }>): { certificate: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.decode64(upload.p12Base64));
  } catch {
    refuse('unreadable', 'p12Base64 is not a PKCS#12 file.');
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, upload.passphrase ?? '');
  } catch {
    refuse('wrong_passphrase', 'The .p12 file cannot be opened with this passphrase.');
  }
  const certificates = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []).flatMap((bag) =>
    bag.cert ? [bag.cert] : [],
  );
  const keys = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ].flatMap((bag) => (bag.key ? [bag.key as forge.pki.rsa.PrivateKey] : []));
  const key = keys[0] ?? refuse('unreadable', 'The .p12 file holds no private key (export the certificate with its key).');
  // The pass certificate is the one of the key; a .p12 may carry the intermediate too.
  const certificate =
    certificates.find((candidate) => (candidate.publicKey as forge.pki.rsa.PublicKey).n?.compareTo(key.n) === 0) ??
    certificates[0] ??
    refuse('unreadable', 'The .p12 file holds no certificate.');
  return { certificate, key };
}

function checkChain(certificate: forge.pki.Certificate, wwdrPem: string, rootPem: string): void {
  let wwdr: forge.pki.Certificate;
  let root: forge.pki.Certificate;
  try {
    wwdr = forge.pki.certificateFromPem(wwdrPem);
    root = forge.pki.certificateFromPem(rootPem);
  } catch {
    refuse('untrusted_issuer', 'wwdrCertificatePem is not a readable certificate.');
  }
  const issuedByWwdr = (() => {
    try {
      return wwdr.verify(certificate);
    } catch {
      return false;
    }
  })();
  if (!issuedByWwdr) {
    refuse(
      'untrusted_issuer',
      `The certificate was issued by "${distinguishedName(certificate.issuer)}", not by the vendor's intermediate "${distinguishedName(wwdr.subject)}".`,
    );
  }
  try {
    forge.pki.verifyCertificateChain(forge.pki.createCaStore([root]), [certificate, wwdr]);
  } catch {
    refuse(
      'untrusted_issuer',
      `The intermediate "${distinguishedName(wwdr.subject)}" does not chain to the vendor's root authority, or is not valid now.`,
    );
  }
}

function attribute(name: forge.pki.Certificate['subject'], oid: string): string | undefined {
  const value = name.getField({ type: oid }) as { value?: unknown } | null;
  return typeof value?.value === 'string' ? value.value : undefined;
}

const SHORT_NAMES: Record<string, string> = { [UID_OID]: 'UID' };

/** `UID=…, CN=…, OU=…, O=…, C=…`, in the certificate's own order. */
function distinguishedName(name: forge.pki.Certificate['subject']): string {
  return name.attributes
    .map((field) => `${field.shortName ?? SHORT_NAMES[field.type ?? ''] ?? field.name ?? field.type}=${String(field.value)}`)
    .join(', ');
}
