import { readFileSync } from 'node:fs';
import { onePerUntilFailed } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import type { WalletSettings } from './settings.js';

/** What the service trusts of the wallet vendor: the authority pass certificates chain to, and its push service. */
export interface VendorTrust {
  rootPem: string;
  /** The vendor's intermediate (WWDR) that issues pass type certificates, sent in every signature. */
  wwdrPem: string;
  pushUrl: string;
  /** Extra authority for the push service's TLS certificate; null: the system's authorities. */
  pushCaPem: string | null;
}

/**
 * The configured vendor (WALLET_* files and URL), else the one given whole (the sandbox's, when it runs), read once
 * per service. Without either, wallet signing cannot work: the error names the settings to set.
 */
export const vendorTrust = onePerUntilFailed(async (services: Services) => readTrust(services.config.wallet));

function readTrust(settings: WalletSettings): VendorTrust {
  if (settings.rootCaFile && settings.wwdrFile) {
    return {
      rootPem: readFileSync(settings.rootCaFile, 'utf8'),
      wwdrPem: readFileSync(settings.wwdrFile, 'utf8'),
      pushUrl: settings.pushUrl ?? 'https://api.push.apple.com',
      pushCaPem: settings.pushCaFile ? readFileSync(settings.pushCaFile, 'utf8') : null,
    };
  }
  const given = settings.vendor;
  if (!given) throw new Error('wallet passes need WALLET_VENDOR_ROOT_CA_FILE and WALLET_WWDR_CERT_FILE (or the sandbox)');
  return {
    rootPem: given.rootPem,
    wwdrPem: given.wwdrPem,
    pushUrl: settings.pushUrl ?? given.pushUrl,
    pushCaPem: settings.pushCaFile ? readFileSync(settings.pushCaFile, 'utf8') : given.pushCaPem,
  };
}
