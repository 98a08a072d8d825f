import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const VERSION = 'v1';

/** Secrets at rest (webhook secrets, platform tokens): AES-256-GCM, a random nonce per value. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  }

  /**
   * ENCRYPTION_KEY (base64 of 32 bytes) when given — every process of a deployment must share it — else a key
   * generated once into the data folder, for the single-machine default.
   */
  static fromConfig(encryptionKey: string | undefined, keyFile: string): SecretBox {
    if (encryptionKey) return new SecretBox(Buffer.from(encryptionKey, 'base64'));
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    return new SecretBox(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64'));
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(ciphertext: string): string {
    const [version, nonce, sealed, tag] = ciphertext.split('.');
    if (version !== VERSION || !nonce || !sealed || !tag) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }
}
