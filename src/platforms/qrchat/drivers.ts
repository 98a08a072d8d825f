import { PlatformError } from '../errors.js';
import { type FakeCreds, qrNetworkAt } from '../../sandbox/qrchat/network.js';
import type { AuthStore, DriverEvents, DriverSocket, QrchatDriver } from './driver.js';

/** The sandbox's driver: its "servers" are the fake network of the sandbox running in this same process. */
export class SandboxQrchatDriver implements QrchatDriver {
  readonly name = 'sandbox';

  constructor(private readonly sandboxUrl: string | null) {}

  async connect(auth: AuthStore, events: DriverEvents): Promise<DriverSocket> {
    const network = this.sandboxUrl ? qrNetworkAt(this.sandboxUrl) : undefined;
    if (!network) throw new PlatformError('transient', 'the qrchat sandbox does not run in this process (SANDBOX=off, or another process started it)');
    const creds = (await auth.readCreds()) as FakeCreds | null;
    return network.connect(creds, events, (saved) => auth.writeCreds(saved));
  }
}

/**
 * The driver named by QRCHAT_DRIVER. Only `sandbox` ships: a real one (an unofficial multi-device library) is
 * added here, in its own module implementing QrchatDriver, when its servers can be reached.
 */
export function createQrchatDriver(name: string, sandboxUrl: string | null): QrchatDriver {
  if (name === 'sandbox') return new SandboxQrchatDriver(sandboxUrl);
  throw new Error(`QRCHAT_DRIVER "${name}" is not available: this build ships only the sandbox driver`);
}
