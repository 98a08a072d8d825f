import { expect } from 'chai';
import { type FakeQrNetwork, qrNetworkAt, type ShownMessage } from '../../../src/sandbox/qrchat/network.js';
import type { TestApp } from '../app.js';
import type { ApiResponse } from '../client.js';
import type { TestOwner } from '../owners.js';
import { until } from '../wait.js';
import { People } from './people.js';

/** The people of the QR-paired chat app: phones that scan codes, write, and log their linked devices out. */
export class QrchatPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'qrchat');
  }

  /** The fake servers the service's sandbox driver talks to, in this process (their timings can be changed). */
  get network(): FakeQrNetwork {
    return qrNetworkAt(this.app().services.sandboxUrl!)!;
  }

  /** A phone scans a QR code: 200 when it paired. */
  scan(qr: string, phoneNumber: string, name = 'Acme Coffee'): Promise<{ status: number; body: any }> {
    return this.attempt('scan', { qr, phoneNumber, name });
  }

  /** The pairing code typed on the phone: 200 when it paired. */
  enterCode(code: string, phoneNumber: string, name = 'Acme Coffee'): Promise<{ status: number; body: any }> {
    return this.attempt('code', { code, phoneNumber, name });
  }

  /** Someone writes to a paired number: to how many linked devices it was delivered. */
  async sendMessage(message: { to: string; text: string; from?: string; name?: string }): Promise<number> {
    return (await this.post<{ delivered: number }>('messages', message)).delivered;
  }

  /** What the phone of `phoneNumber` shows of the messages linked devices sent it, oldest first. */
  async onPlatform(phoneNumber: string): Promise<ShownMessage[]> {
    return (await this.get<{ messages: ShownMessage[] }>('received', { phoneNumber })).messages;
  }

  /** The person of `phoneNumber` opens the chat with `from`: how many messages became read. */
  async read(phoneNumber: string, from: string): Promise<number> {
    return (await this.post<{ read: number }>('read', { phoneNumber, from })).read;
  }

  /** The phone logs out its linked devices: how many it logged out. */
  async removeApp(phoneNumber: string): Promise<number> {
    return (await this.post<{ loggedOut: number }>('logout', { phoneNumber })).loggedOut;
  }

  /** The devices linked to the phone. */
  async linkedDevices(phoneNumber: string): Promise<string[]> {
    return (await this.get<{ devices: string[] }>('devices', { phoneNumber })).devices;
  }
}

/** GET /accounts/{id}/qrchat/qr once it is in `state`. */
export function qrInState(app: TestApp, owner: TestOwner, accountId: string, state: string): Promise<ApiResponse> {
  return until(() => app.api.get(`/accounts/${accountId}/qrchat/qr`, { token: owner.key }), {
    done: (shown) => shown.body.state === state,
    what: `the QR of ${accountId} to be ${state}`,
  });
}

/** Connects, waits for the QR and scans it with `phone`: the account's id once it is paired. */
export async function pairNumber(app: TestApp, owner: TestOwner, phone: string, name = 'Acme Coffee'): Promise<string> {
  const started = await app.api.post('/connect/qrchat', { token: owner.key, body: { profileId: owner.profileId } });
  expect(started.status, JSON.stringify(started.body)).to.equal(201);
  const shown = await qrInState(app, owner, started.body.id, 'awaiting_scan');
  expect((await new QrchatPeople(() => app).scan(shown.body.qr.text, phone, name)).status).to.equal(200);
  await qrInState(app, owner, started.body.id, 'paired');
  return started.body.id;
}
