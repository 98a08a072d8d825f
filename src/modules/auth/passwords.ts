import { hash, verify } from '@node-rs/argon2';

// OWASP's Argon2id baseline (m=19 MiB, t=2, p=1).
const ARGON2ID = 2; // Algorithm.Argon2id, a const enum that isolated modules cannot read.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

/** Verifying against this when the email is unknown keeps both answers equally slow. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  return decoyHash;
}
