import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';

export interface IssuedCertificate {
  certificatePem: string;
  privateKeyPem: string;
  p12Base64: string;
  wwdrCertificatePem: string;
  rootCertificatePem: string;
}

export interface HeldPass {
  passTypeIdentifier: string;
  serialNumber: string;
  passJson: Record<string, any>;
  lastModified: string | null;
  updates: number;
  notices: string[];
}

export interface SimulatedPhone {
  id: string;
  libraryIdentifier: string;
  pushToken: string;
  pushes: number;
  errors: string[];
  passes: HeldPass[];
}

let teams = 0;

/**
 * The wallet vendor's side in the sandbox: its certificate authority (issuing pass type certificates as its
 * developer site does), its push service, and simulated phones that add passes and follow their updates.
 */
export class WalletPeople {
  constructor(private readonly app: () => TestApp) {}

  private get url(): string {
    const url = this.app().services.sandboxUrl;
    if (!url) throw new Error('the app runs no sandbox');
    return url;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** Fresh identifiers, so that tests never share a pass type. */
  newIdentifiers(): { passTypeIdentifier: string; teamIdentifier: string } {
    const n = `${process.pid}${++teams}${Date.now() % 100000}`;
    return { passTypeIdentifier: `pass.test.wallet.p${n}`, teamIdentifier: `T${n}`.padEnd(10, '0').slice(0, 10).toUpperCase() };
  }

  /** A pass type certificate, as the vendor's developer site issues it (`issuer: 'stranger'`: by an authority nobody trusts). */
  async issueCertificate(request: {
    passTypeIdentifier: string;
    teamIdentifier: string;
    validFrom?: string;
    validUntil?: string;
    passphrase?: string;
    issuer?: 'vendor' | 'stranger';
  }): Promise<IssuedCertificate> {
    const response = await this.call<IssuedCertificate>('POST', '/_sandbox/wallet/certificates', request);
    expect(response.status).to.equal(200);
    return response.body;
  }

  async rootCertificatePem(): Promise<string> {
    return (await this.call<{ rootCertificatePem: string }>('GET', '/wallet-vendor/trust')).body.rootCertificatePem;
  }

  async newPhone(): Promise<SimulatedPhone> {
    return (await this.call<SimulatedPhone>('POST', '/_sandbox/wallet/phones')).body;
  }

  async phone(id: string): Promise<SimulatedPhone> {
    return (await this.call<SimulatedPhone>('GET', `/_sandbox/wallet/phones/${id}`)).body;
  }

  /** The phone opens the pass's download link and adds the pass to its wallet (it registers for updates). */
  async addPass(phone: SimulatedPhone, downloadUrl: string): Promise<SimulatedPhone> {
    const response = await this.call<SimulatedPhone & { error?: string }>('POST', `/_sandbox/wallet/phones/${phone.id}/passes`, {
      downloadUrl,
    });
    expect(response.status, response.body.error).to.equal(201);
    return response.body;
  }

  async removePass(phone: SimulatedPhone, passTypeIdentifier: string, serialNumber: string): Promise<number> {
    return (
      await this.call<{ status: number }>('DELETE', `/_sandbox/wallet/phones/${phone.id}/passes/${passTypeIdentifier}/${serialNumber}`)
    ).body.status;
  }

  /** The phone's wallet was reset: its push token is no longer valid (pushes to it answer 410 Unregistered). */
  async leave(phone: SimulatedPhone): Promise<void> {
    expect((await this.call('POST', `/_sandbox/wallet/phones/${phone.id}/leave`)).status).to.equal(200);
  }

  async failNextPush(status: 400 | 403 | 410 | 429, reason: string, times = 1): Promise<void> {
    expect((await this.call('POST', '/_sandbox/wallet/push/fail-next', { status, reason, times })).status).to.equal(204);
  }

  async pushesAnswered(): Promise<Array<{ token: string; topic: string; status: number; reason: string | null }>> {
    return (
      await this.call<Array<{ token: string; topic: string; status: number; reason: string | null }>>(
        'GET',
        '/_sandbox/wallet/push/answered',
      )
    ).body;
  }

  /**
   * A program of the owner connected the way an owner does it: created, its identifiers set, a certificate
   * issued for them by the vendor uploaded. Answers the program's id and its identifiers.
   */
  async connectedProgram(
    owner: TestOwner,
    design: Record<string, unknown> = {},
  ): Promise<{ programId: string; passTypeIdentifier: string; teamIdentifier: string }> {
    const api = this.app().api;
    const program = await api.post('/wallet/programs', {
      token: owner.key,
      body: {
        profileId: owner.profileId,
        name: 'Coffee Club',
        passStyle: 'storeCard',
        organizationName: 'Acme Coffee',
        description: 'Acme Coffee Club loyalty card',
        fields: [
          { key: 'balance', label: 'POINTS', section: 'header', changeMessage: 'You now have %@ points.' },
          { key: 'memberName', label: 'MEMBER', section: 'secondary' },
          { key: 'tier', label: 'TIER', section: 'auxiliary', defaultValue: 'Bronze', changeMessage: 'Your tier is now %@.' },
        ],
        ...design,
      },
    });
    expect(program.status, program.text).to.equal(201);
    const identifiers = this.newIdentifiers();
    const connect = await api.post(`/wallet/programs/${program.body.id}/vendor/connect`, { token: owner.key, body: identifiers });
    expect(connect.status, connect.text).to.equal(200);
    const issued = await this.issueCertificate(identifiers);
    const upload = await api.post(`/wallet/programs/${program.body.id}/vendor/certificate`, {
      token: owner.key,
      body: { format: 'pem', certificatePem: issued.certificatePem, privateKeyPem: issued.privateKeyPem },
    });
    expect(upload.status, upload.text).to.equal(200);
    return { programId: program.body.id, ...identifiers };
  }
}
