import { pino, type Logger } from 'pino';

export type { Logger };

/** LOG_LEVEL, `info` when unset. */
export function logLevelOf(env: NodeJS.ProcessEnv): string {
  return env.LOG_LEVEL || 'info';
}

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', '*.password', '*.token', '*.secret'], censor: '[redacted]' },
  });
}
