import { createHash, verify as verifySignature } from 'node:crypto';
import { unzipSync } from 'fflate';
import forge from 'node-forge';

/** The files of a ZIP archive (stored or deflated entries). */
export function unzip(archive: Buffer): Map<string, Buffer> {
  return new Map(Object.entries(unzipSync(archive)).map(([name, data]) => [name, Buffer.from(data)]));
}

const MESSAGE_DIGEST_OID = forge.pki.oids.messageDigest!;

/**
 * What a phone checks of a `.pkpass` before it shows the pass: every file is in the manifest with its SHA-1, and
 * the manifest's detached PKCS#7 signature was made by a certificate that chains to the vendor's root through the
 * intermediate carried in the signature. Answers the pass's `pass.json`; throws the reason a phone would refuse it.
 */
export function checkPkpass(archive: Buffer, rootPem: string): { passJson: Record<string, unknown>; files: Map<string, Buffer> } {
  const files = unzip(archive);
  const manifestBytes = files.get('manifest.json');
  const signature = files.get('signature');
  const passBytes = files.get('pass.json');
  if (!manifestBytes || !signature || !passBytes) throw new Error('pass.json, manifest.json or signature is missing');
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as Record<string, string>;
  for (const [name, bytes] of files) {
    if (name === 'manifest.json' || name === 'signature') continue;
    if (manifest[name] !== createHash('sha1').update(bytes).digest('hex')) throw new Error(`${name} does not match its manifest hash`);
  }
  if (!files.has('icon.png')) throw new Error('icon.png is missing');
  checkSignature(manifestBytes, signature, rootPem);
  return { passJson: JSON.parse(passBytes.toString('utf8')) as Record<string, unknown>, files };
}

function checkSignature(manifest: Buffer, signature: Buffer, rootPem: string): void {
  const message = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(signature.toString('binary'))) as forge.pkcs7.PkcsSignedData & {
    rawCapture: { signerInfos: forge.asn1.Asn1[] };
  };
  const [signerInfo] = message.rawCapture.signerInfos;
  if (!signerInfo) throw new Error('the signature has no signer');
  const parts = signerInfo.value as forge.asn1.Asn1[];
  const attributes = parts.find((part) => part.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && part.type === 0);
  const signatureValue = parts.find((part) => part.tagClass === forge.asn1.Class.UNIVERSAL && part.type === forge.asn1.Type.OCTETSTRING);
  if (!attributes || !signatureValue) throw new Error('the signature has no signed attributes');
  const digest = (attributes.value as forge.asn1.Asn1[])
    .map((attribute) => attribute.value as forge.asn1.Asn1[])
    .find((attribute) => forge.asn1.derToOid(attribute[0]!.value as string) === MESSAGE_DIGEST_OID);
  const signedDigest = ((digest?.[1]?.value as forge.asn1.Asn1[] | undefined)?.[0]?.value as string | undefined) ?? '';
  if (Buffer.from(signedDigest, 'binary').toString('hex') !== createHash('sha1').update(manifest).digest('hex')) {
    throw new Error('the signature is not of this manifest');
  }
  // What is signed is the attributes' DER with the SET tag in place of the implicit [0].
  const signedBytes = Buffer.from(
    forge.asn1
      .toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes.value as forge.asn1.Asn1[]))
      .getBytes(),
    'binary',
  );
  const certificates = message.certificates;
  const signer = certificates.find((candidate) =>
    candidate.extensions.some((e: { name?: string; cA?: boolean }) => e.name === 'basicConstraints' && !e.cA),
  );
  if (!signer) throw new Error('the signature carries no signing certificate');
  if (!verifySignature('sha1', signedBytes, forge.pki.certificateToPem(signer), Buffer.from(signatureValue.value as string, 'binary'))) {
    throw new Error('the signature does not verify');
  }
  const chain = [signer, ...certificates.filter((candidate) => candidate !== signer)];
  try {
    forge.pki.verifyCertificateChain(forge.pki.createCaStore([rootPem]), chain);
  } catch {
    throw new Error("the signing certificate does not chain to the vendor's root");
  }
}
