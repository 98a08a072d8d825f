/**
 * What a platform module read of the environment: its whole settings, or, where the platform is left
 * unconfigured, the values that were set (the sandbox's defaults fill in the rest) and what would configure it.
 */
export type SettingsRead<S> = { configured: true; settings: S } | { configured: false; partial: Partial<S>; needs: string };

export function configured<S>(settings: S): SettingsRead<S> {
  return { configured: true, settings };
}

/** `needs`: what the operator sets to configure it (`set BOTCHAT_API_URL`). `partial` holds only values that were set. */
export function unconfigured<S>(needs: string, partial: NoInfer<Partial<S>> = {}): SettingsRead<S> {
  return { configured: false, partial, needs };
}

/** A base URL from the environment without its trailing slash; `fallback` where it is unset. */
export function baseUrl(raw: string | undefined, fallback?: string): string | undefined {
  return (raw || fallback)?.replace(/\/$/, '');
}

/**
 * An app's id and secret, which make sense only together: both, or undefined when neither is set. One without the
 * other is a mistake the start-up stops at, naming the variable that is missing.
 */
export function appCredentials(env: NodeJS.ProcessEnv, idName: string, secretName: string): { id: string; secret: string } | undefined {
  const id = env[idName] || undefined;
  const secret = env[secretName] || undefined;
  if (id && secret) return { id, secret };
  if (id || secret) {
    const [missing, given] = id ? [secretName, idName] : [idName, secretName];
    throw new Error(`${missing} must be set with ${given} (or neither, to leave the platform unconfigured)`);
  }
  return undefined;
}
