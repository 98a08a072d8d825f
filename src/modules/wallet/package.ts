import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import type { Services } from '../../services.js';
import { designImages } from './images.js';
import type { PassRow, ProgramRow, TransitType } from './models.js';
import { WalletVendorNotConnectedError } from './errors.js';
import { signManifest } from './signature.js';
import { vendorStatus } from './vendor-status.js';

const BARCODE_FORMATS = {
  qr: 'PKBarcodeFormatQR',
  pdf417: 'PKBarcodeFormatPDF417',
  aztec: 'PKBarcodeFormatAztec',
  code128: 'PKBarcodeFormatCode128',
} as const;
const TRANSIT_TYPES: Record<TransitType, string> = {
  air: 'PKTransitTypeAir',
  boat: 'PKTransitTypeBoat',
  bus: 'PKTransitTypeBus',
  generic: 'PKTransitTypeGeneric',
  train: 'PKTransitTypeTrain',
};
const SECTIONS = {
  header: 'headerFields',
  primary: 'primaryFields',
  secondary: 'secondaryFields',
  auxiliary: 'auxiliaryFields',
  back: 'backFields',
} as const;

/** Where devices reach the pass web service: `<PUBLIC_URL>/wallet/ws` (the vendor requires https for real devices). */
export function webServiceUrl(services: Services): string {
  return `${services.config.publicUrl}/wallet/ws`;
}

/** The value a field of the program shows on a pass: the balance, the pass's own value, or the field's default. */
export function fieldValue(pass: PassRow, key: string, defaultValue: string | null): string {
  if (key === 'balance') return String(pass.balance);
  return pass.fields[key] ?? defaultValue ?? '';
}

/** The pass's `pass.json`, as the vendor defines it, with what the devices need to follow its updates. */
export function passJson(services: Services, program: ProgramRow, pass: PassRow): Record<string, unknown> {
  const style: Record<string, unknown> = {};
  for (const field of program.fields) {
    const section = SECTIONS[field.section];
    const entry = {
      key: field.key,
      value: fieldValue(pass, field.key, field.defaultValue),
      ...(field.label ? { label: field.label } : {}),
      ...(field.changeMessage ? { changeMessage: field.changeMessage } : {}),
    };
    style[section] = [...((style[section] as unknown[] | undefined) ?? []), entry];
  }
  if (program.passStyle === 'boardingPass' && program.transitType) style.transitType = TRANSIT_TYPES[program.transitType];
  const barcodes = program.barcodeFormat
    ? [{ format: BARCODE_FORMATS[program.barcodeFormat], message: pass.barcodeMessage, messageEncoding: 'iso-8859-1' }]
    : [];
  return {
    formatVersion: 1,
    passTypeIdentifier: pass.passTypeIdentifier,
    serialNumber: pass.serialNumber,
    teamIdentifier: program.teamIdentifier,
    organizationName: program.organizationName,
    description: program.description,
    ...(program.logoText ? { logoText: program.logoText } : {}),
    ...(program.colors
      ? { foregroundColor: program.colors.foreground, backgroundColor: program.colors.background, labelColor: program.colors.label }
      : {}),
    webServiceURL: webServiceUrl(services),
    authenticationToken: services.secrets.open(pass.sealedAuthenticationToken),
    ...(barcodes.length > 0 ? { barcodes } : {}),
    ...(pass.expiresAt ? { expirationDate: pass.expiresAt.toISOString() } : {}),
    ...(pass.deletedAt ? { voided: true } : {}),
    [program.passStyle]: style,
  };
}

/**
 * The signed `.pkpass` of a pass, as it is now: `pass.json`, the design's images, `manifest.json` with each
 * file's SHA-1, and the manifest's detached PKCS#7 signature by the program's certificate carrying the vendor's
 * intermediate (node-forge's PKCS#7, see signature.ts), zipped with stored entries. A deleted pass is built void.
 */
export async function buildPkpass(services: Services, program: ProgramRow, pass: PassRow): Promise<Buffer> {
  if (vendorStatus(program).status !== 'connected' || !program.certificatePem || !program.sealedPrivateKey || !program.wwdrPem) {
    throw new WalletVendorNotConnectedError('The pass cannot be signed right now: the program has no valid certificate.');
  }
  const files: Array<[string, Buffer]> = [
    ['pass.json', Buffer.from(JSON.stringify(passJson(services, program, pass)))],
    ...Object.entries(await designImages(services, program)),
  ];
  const manifest = Buffer.from(
    JSON.stringify(Object.fromEntries(files.map(([name, data]) => [name, createHash('sha1').update(data).digest('hex')]))),
  );
  const signature = signManifest(manifest, {
    certificatePem: program.certificatePem,
    privateKeyPem: services.secrets.open(program.sealedPrivateKey),
    wwdrPem: program.wwdrPem,
  });
  // Stored, not deflated: the images are compressed already, and phones read either.
  const entries: Array<[string, Buffer]> = [...files, ['manifest.json', manifest], ['signature', signature]];
  return Buffer.from(zipSync(Object.fromEntries(entries), { level: 0 }));
}
