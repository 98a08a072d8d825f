import { readFileSync } from 'node:fs';
import type { Services } from '../../services.js';

/** What the service trusts of the wallet vendor: the authority pass certificates chain to, and its push service. */
export interface VendorTrust {
  rootPem: string;
  /** The vendor's intermediate (WWDR) that issues pass type certificates, sent in every signature. */
  wwdrPem: string;
  pushUrl: string;
  /** Extra authority for the push service's TLS certificate; null: the system's authorities. */
  pushCaPem: string | null;
}

/** Where the sandbox publishes its stand-in for the vendor's authority and push service. */
export const SANDBOX_TRUST_PATH = '/wallet-vendor/trust';

const resolved = new WeakMap<Services, Promise<VendorTrust>>();

/**
 * The configured vendor (WALLET_* files and URL), else, when the sandbox runs, the sandbox's stand-in, read once
 * from it over HTTP. Without either, wallet signing cannot work: the error names the settings to set.
 */
export function vendorTrust(services: Services): Promise<VendorTrust> {
  let trust = resolved.get(services);
  if (!trust) {
    trust = readTrust(services);
    trust.catch(() => resolved.delete(services));
    resolved.set(services, trust);
  }
  return trust;
}

async function readTrust(services: Services): Promise<VendorTrust> {
  const settings = services.config.wallet;
  if (settings.rootCaFile && settings.wwdrFile) {
    return {
      rootPem: readFileSync(settings.rootCaFile, 'utf8'),
      wwdrPem: readFileSync(settings.wwdrFile, 'utf8'),
      pushUrl: settings.pushUrl ?? 'https://api.push.apple.com',
      pushCaPem: settings.pushCaFile ? readFileSync(settings.pushCaFile, 'utf8') : null,
    };
  }
  if (!services.sandboxUrl) {
    throw new Error('wallet passes need WALLET_VENDOR_ROOT_CA_FILE and WALLET_WWDR_CERT_FILE (or the sandbox)');
  }
  const response = await fetch(`${services.sandboxUrl}${SANDBOX_TRUST_PATH}`);
  if (!response.ok) throw new Error(`the sandbox's wallet vendor answered ${response.status}`);
  const sandbox = (await response.json()) as { rootCertificatePem: string; wwdrCertificatePem: string; pushUrl: string };
  return {
    rootPem: sandbox.rootCertificatePem,
    wwdrPem: sandbox.wwdrCertificatePem,
    pushUrl: settings.pushUrl ?? sandbox.pushUrl,
    pushCaPem: settings.pushCaFile ? readFileSync(settings.pushCaFile, 'utf8') : sandbox.rootCertificatePem,
  };
}
