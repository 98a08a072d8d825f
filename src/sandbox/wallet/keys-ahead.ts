import { generateKeyPair, type KeyPairKeyObjectResult } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';

const generateRsaKeyPair = promisify(generateKeyPair);

/** A new wallet vendor's: its root's, its intermediate's, and its push service's certificate's. */
const NEW_VENDOR_KEYS = 3;

/** Made as the process started, taken in turn by the first keys asked for. */
const ahead: Array<Promise<KeyPairKeyObjectResult>> = [];

/** An RSA key pair made by node's crypto in its thread pool, off the event loop. */
function rsaKeyPair(): Promise<KeyPairKeyObjectResult> {
  return generateRsaKeyPair('rsa', { modulusLength: 2048 });
}

/**
 * On a new data folder (missing or empty), starts making the keys the sandbox's new wallet vendor will ask for: src/
 * main.ts calls it before the service's modules load, and the sandbox starts once they have. Made then, in the
 * thread pool beside the loading, they were the last thing such a start waited for (0.1–0.3 s of CPU each). Not
 * when the sandbox is off; a first start that finds every platform configured does not use them.
 */
export function makeVendorKeysAhead(dataDir: string, env: NodeJS.ProcessEnv): void {
  if (env.SANDBOX === 'off' || (existsSync(dataDir) && readdirSync(dataDir).length > 0)) return;
  for (let i = 0; i < NEW_VENDOR_KEYS; i += 1) {
    const made = rsaKeyPair();
    made.catch(() => {}); // reported to whoever takes it
    ahead.push(made);
  }
}

/** A new RSA key pair: one made ahead while any is left. */
export function takeKeyPair(): Promise<KeyPairKeyObjectResult> {
  return ahead.shift() ?? rsaKeyPair();
}
