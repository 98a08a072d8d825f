import { type SettingsRead, unconfigured } from '../settings.js';
import type { QrchatDriver } from './driver.js';

export interface QrchatSettings {
  /** What speaks the linked-device protocol for the sessions (driver.ts). */
  driver: QrchatDriver;
}

/**
 * QRCHAT_DRIVER names the driver. Only the sandbox's ships (the sandbox gives it, src/sandbox/qrchat/): a real one
 * is added here, in its own module implementing QrchatDriver, when the chat app's servers can be reached.
 */
export function qrchatSettings(env: NodeJS.ProcessEnv): SettingsRead<QrchatSettings> {
  const name = env.QRCHAT_DRIVER || 'sandbox';
  if (name !== 'sandbox') throw new Error(`QRCHAT_DRIVER "${name}" is not available: this build ships only the sandbox driver`);
  return unconfigured('run the sandbox (SANDBOX=auto): its driver is the only one QRCHAT_DRIVER can name in this build');
}
