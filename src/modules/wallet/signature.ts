import { constants, createPrivateKey, type KeyObject, privateEncrypt } from 'node:crypto';
import forge from 'node-forge';

const { asn1 } = forge;

/**
 * A signer key for node-forge's PKCS#7 whose RSA operation runs in node's crypto (OpenSSL): forge's own, in
 * JavaScript, takes ~100 ms a signature, which would cap a core at ten passes a second. forge still builds the
 * whole SignedData; this only turns its digest (as a DigestInfo, RSASSA-PKCS1-v1_5) into the signature.
 */
function nativeSigner(key: KeyObject): { sign(md: forge.md.MessageDigest): string } {
  return {
    sign(md) {
      const digestInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids[md.algorithm]!).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
        ]),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, md.digest().getBytes()),
      ]);
      const der = Buffer.from(asn1.toDer(digestInfo).getBytes(), 'binary');
      return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, der).toString('binary');
    },
  };
}

export interface SigningIdentity {
  certificatePem: string;
  privateKeyPem: string;
  wwdrPem: string;
}

interface Parsed {
  certificate: forge.pki.Certificate;
  wwdr: forge.pki.Certificate;
  key: KeyObject;
}

/** Parsed identities by certificate: a program signs many passes with the same one. */
const parsed = new Map<string, Parsed>();
const PARSED_SIZE = 100;

function parse(identity: SigningIdentity): Parsed {
  const cacheKey = `${identity.certificatePem}\n${identity.wwdrPem}`;
  let found = parsed.get(cacheKey);
  if (!found) {
    found = {
      certificate: forge.pki.certificateFromPem(identity.certificatePem),
      wwdr: forge.pki.certificateFromPem(identity.wwdrPem),
      key: createPrivateKey(identity.privateKeyPem),
    };
    parsed.set(cacheKey, found);
    if (parsed.size > PARSED_SIZE) parsed.delete(parsed.keys().next().value!);
  }
  return found;
}

/**
 * The detached PKCS#7 signature (DER) of a pass's manifest, as the vendor requires it: SHA-1, signed attributes
 * with content type, message digest and signing time, the signer's certificate and the vendor's intermediate.
 */
export function signManifest(manifest: Buffer, identity: SigningIdentity): Buffer {
  const { certificate, wwdr, key } = parse(identity);
  const signed = forge.pkcs7.createSignedData();
  signed.content = forge.util.createBuffer(manifest.toString('binary'));
  signed.addCertificate(wwdr);
  signed.addCertificate(certificate);
  signed.addSigner({
    // forge's types want its own key; the signer only needs `sign`.
    key: nativeSigner(key) as unknown as forge.pki.rsa.PrivateKey,
    certificate,
    digestAlgorithm: forge.pki.oids.sha1!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data },
      { type: forge.pki.oids.messageDigest! },
      { type: forge.pki.oids.signingTime! },
    ],
  });
  signed.sign({ detached: true });
  return Buffer.from(asn1.toDer(signed.toAsn1()).getBytes(), 'binary');
}
