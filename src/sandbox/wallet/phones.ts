import { randomBytes } from 'node:crypto';
import { checkPkpass } from './pkpass-check.js';

/** A pass as the phone holds it, and what the holder saw happen to it. */
export interface HeldPass {
  passTypeIdentifier: string;
  serialNumber: string;
  passJson: Record<string, unknown>;
  lastModified: string | null;
  /** Every time a newer version of the pass was fetched after a push. */
  updates: number;
  /** Lock-screen notices shown for changed fields (their `changeMessage` with the new value). */
  notices: string[];
}

export interface Phone {
  id: string;
  /** Sent to the pass web service; identifies the phone's wallet. */
  libraryIdentifier: string;
  pushToken: string;
  passes: Map<string, HeldPass>;
  /** The `lastUpdated` tag of the phone's last look per pass type. */
  tags: Map<string, string>;
  pushes: number;
  /** What went wrong when the phone talked to the service (it would be sent to the log endpoint). */
  errors: string[];
}

/** When a phone tries again after its look for changes failed. */
const RETRY_MS = [1000, 2000, 4000, 8000];

const keyOf = (passTypeIdentifier: string, serialNumber: string) => `${passTypeIdentifier}/${serialNumber}`;

/**
 * Simulated phones: a wallet adds a pass from its download link (checking it as a phone does), registers with the
 * pass web service named in it, and on a push asks which passes changed and fetches each — the whole update
 * protocol, over HTTP against the service.
 */
export class Phones {
  private readonly phones = new Map<string, Phone>();
  private readonly byToken = new Map<string, Phone>();
  private next = 1;

  constructor(
    private readonly rootPem: () => string,
    private readonly issueToken: (token: string) => void,
  ) {}

  create(): Phone {
    const phone: Phone = {
      id: `phone${this.next++}`,
      libraryIdentifier: randomBytes(16).toString('hex'),
      pushToken: randomBytes(32).toString('hex'),
      passes: new Map(),
      tags: new Map(),
      pushes: 0,
      errors: [],
    };
    this.phones.set(phone.id, phone);
    this.byToken.set(phone.pushToken, phone);
    this.issueToken(phone.pushToken);
    return phone;
  }

  all(): Phone[] {
    return [...this.phones.values()];
  }

  get(id: string): Phone | undefined {
    return this.phones.get(id);
  }

  /** Downloads the pass, checks it, keeps it and registers for its updates. Throws what a phone would show. */
  async addPass(phone: Phone, downloadUrl: string): Promise<HeldPass> {
    const response = await fetch(downloadUrl);
    if (response.status !== 200) throw new Error(`the download answered ${response.status}`);
    if (response.headers.get('content-type') !== 'application/vnd.apple.pkpass') throw new Error('the download is not a pass');
    const { passJson } = checkPkpass(Buffer.from(await response.arrayBuffer()), this.rootPem());
    const held: HeldPass = {
      passTypeIdentifier: String(passJson.passTypeIdentifier),
      serialNumber: String(passJson.serialNumber),
      passJson,
      lastModified: response.headers.get('last-modified'),
      updates: 0,
      notices: [],
    };
    phone.passes.set(keyOf(held.passTypeIdentifier, held.serialNumber), held);
    if (typeof passJson.webServiceURL === 'string') {
      const registered = await this.call(phone, held, 'POST', this.registrationPath(phone, held), { pushToken: phone.pushToken });
      if (registered.status !== 201 && registered.status !== 200) throw new Error(`registering answered ${registered.status}`);
    }
    return held;
  }

  /** The holder removed the pass: the phone unregisters. */
  async removePass(phone: Phone, passTypeIdentifier: string, serialNumber: string): Promise<number> {
    const held = phone.passes.get(keyOf(passTypeIdentifier, serialNumber));
    if (!held) return 404;
    phone.passes.delete(keyOf(passTypeIdentifier, serialNumber));
    return (await this.call(phone, held, 'DELETE', this.registrationPath(phone, held))).status;
  }

  /** A push reached the phone: it asks which of its passes of each type changed, and fetches those. */
  async pushed(token: string): Promise<void> {
    const phone = this.byToken.get(token);
    if (!phone) return;
    phone.pushes++;
    const types = new Map<string, HeldPass>();
    for (const held of phone.passes.values()) types.set(held.passTypeIdentifier, held);
    for (const [passTypeIdentifier, any] of types) {
      // As a wallet does, a failed look is tried again a little later (a busy or unreachable service).
      for (let attempt = 0; ; attempt++) {
        try {
          await this.refresh(phone, passTypeIdentifier, any);
          break;
        } catch (error) {
          if (attempt < RETRY_MS.length) {
            await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
            continue;
          }
          phone.errors.push(`updating ${passTypeIdentifier}: ${(error as Error).message}`);
          break;
        }
      }
    }
  }

  private async refresh(phone: Phone, passTypeIdentifier: string, any: HeldPass): Promise<void> {
    const since = phone.tags.get(passTypeIdentifier);
    const base = String(any.passJson.webServiceURL);
    const url = `${base}/v1/devices/${phone.libraryIdentifier}/registrations/${passTypeIdentifier}${since ? `?passesUpdatedSince=${since}` : ''}`;
    const changed = await fetch(url);
    if (changed.status === 204) return;
    if (changed.status !== 200) throw new Error(`asking for changes answered ${changed.status}`);
    const { serialNumbers, lastUpdated } = (await changed.json()) as { serialNumbers: string[]; lastUpdated: string };
    for (const serialNumber of serialNumbers) {
      const held = phone.passes.get(keyOf(passTypeIdentifier, serialNumber));
      if (held) await this.fetchLatest(phone, held);
    }
    phone.tags.set(passTypeIdentifier, lastUpdated);
  }

  private async fetchLatest(phone: Phone, held: HeldPass): Promise<void> {
    const response = await this.call(
      phone,
      held,
      'GET',
      `/v1/passes/${held.passTypeIdentifier}/${held.serialNumber}`,
      undefined,
      held.lastModified,
    );
    if (response.status === 304) return;
    if (response.status !== 200) throw new Error(`fetching ${held.serialNumber} answered ${response.status}`);
    const { passJson } = checkPkpass(Buffer.from(await response.arrayBuffer()), this.rootPem());
    held.notices.push(...notices(held.passJson, passJson));
    held.passJson = passJson;
    held.lastModified = response.headers.get('last-modified');
    held.updates++;
  }

  private registrationPath(phone: Phone, held: HeldPass): string {
    return `/v1/devices/${phone.libraryIdentifier}/registrations/${held.passTypeIdentifier}/${held.serialNumber}`;
  }

  private call(
    _phone: Phone,
    held: HeldPass,
    method: string,
    path: string,
    body?: unknown,
    ifModifiedSince?: string | null,
  ): Promise<Response> {
    return fetch(`${String(held.passJson.webServiceURL)}${path}`, {
      method,
      headers: {
        authorization: `ApplePass ${String(held.passJson.authenticationToken)}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(ifModifiedSince ? { 'if-modified-since': ifModifiedSince } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }
}

type Field = { key: string; value: unknown; changeMessage?: string };

/** The lock-screen notices a phone shows for a new version: changed fields that have a `changeMessage`. */
function notices(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fieldsOf = (passJson: Record<string, unknown>): Field[] => {
    const style = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'].find((key) => key in passJson);
    const content = (style ? passJson[style] : {}) as Record<string, Field[] | undefined>;
    return ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap(
      (section) => content[section] ?? [],
    );
  };
  const previous = new Map(fieldsOf(before).map((field) => [field.key, field.value]));
  return fieldsOf(after)
    .filter((field) => field.changeMessage && previous.get(field.key) !== field.value)
    .map((field) => field.changeMessage!.replace('%@', String(field.value)));
}
