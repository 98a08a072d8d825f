/**
 * Readers of environment variables for settings. Each takes the environment it reads as an argument (never
 * process.env behind the caller's back) and throws a sentence naming the variable when its value is wrong.
 */

export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** A comma-separated list of non-negative integers (a retry schedule in seconds). */
export function intList(name: string, fallback: number[], env: NodeJS.ProcessEnv): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = list(raw).map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 0)) {
    throw new Error(`${name} must be a comma-separated list of non-negative integers, got "${raw}"`);
  }
  return values;
}

export function bool(name: string, env: NodeJS.ProcessEnv): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}
