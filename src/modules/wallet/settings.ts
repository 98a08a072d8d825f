import { int } from '../../lib/env.js';

export interface WalletSettings {
  /**
   * The vendor's root certificate authority (PEM file) that pass certificates must chain to, and its
   * intermediate (WWDR G4) that signs them. Unset: the sandbox's authority when the sandbox runs.
   */
  rootCaFile: string | null;
  wwdrFile: string | null;
  /** The vendor's HTTP/2 push service (production: https://api.push.apple.com). Unset: the sandbox's. */
  pushUrl: string | null;
  /** Extra authority the push service's TLS certificate is checked against (the sandbox's); unset: the system's. */
  pushCaFile: string | null;
  /**
   * The vendor's authority and push service given whole rather than by files: the sandbox's, when the files are
   * unset and the sandbox runs; never read from the environment.
   */
  vendor: { rootPem: string; wwdrPem: string; pushUrl: string; pushCaPem: string } | null;
  /** Pushes sent at once per worker process. */
  pushConcurrency: number;
  pushLeaseSeconds: number;
}

export function walletSettings(env: NodeJS.ProcessEnv): { wallet: WalletSettings } {
  return {
    wallet: {
      rootCaFile: env.WALLET_VENDOR_ROOT_CA_FILE || null,
      wwdrFile: env.WALLET_WWDR_CERT_FILE || null,
      pushUrl: env.WALLET_PUSH_URL || null,
      pushCaFile: env.WALLET_PUSH_CA_FILE || null,
      vendor: null,
      pushConcurrency: int('WALLET_PUSH_CONCURRENCY', 100, env),
      pushLeaseSeconds: int('WALLET_PUSH_LEASE_SECONDS', 10, env),
    },
  };
}
