import { PlatformError } from '../../platforms/errors.js';
import type { AuthStore, DriverEvents, DriverSocket, QrchatDriver } from '../../platforms/qrchat/driver.js';
import { type FakeCreds, qrNetworkAt } from './network.js';

/** The sandbox's driver: its "servers" are the fake network of the sandbox running in this same process. */
export class SandboxQrchatDriver implements QrchatDriver {
  readonly name = 'sandbox';

  constructor(private readonly sandboxUrl: string) {}

  async connect(auth: AuthStore, events: DriverEvents): Promise<DriverSocket> {
    const network = qrNetworkAt(this.sandboxUrl);
    if (!network)
      throw new PlatformError(
        'transient',
        'the qrchat sandbox does not run in this process (another process started it, or it was stopped)',
      );
    const creds = (await auth.readCreds()) as FakeCreds | null;
    return network.connect(creds, events, (saved) => auth.writeCreds(saved));
  }
}
