import type { components } from '../../../../generated/api.js';
import type { FieldError } from '../../../lib/errors.js';
import type { ServerEventUser } from '../../../platforms/capabilities/ad-pixels.js';
import { type HashingPlatform, isHashedOn, isSha256Hex, type PersonField, preparePersonField } from '../people/hashing.js';

type UserData = components['schemas']['AdPixelEvent']['userData'];

/** The contract's person members and the field each is. */
const PERSON_MEMBERS = {
  em: 'email',
  ph: 'phone',
  fn: 'firstName',
  ln: 'lastName',
  ge: 'gender',
  db: 'dateOfBirth',
  ct: 'city',
  st: 'state',
  zp: 'zip',
  country: 'country',
  externalId: 'externalId',
} as const satisfies Partial<Record<keyof UserData, PersonField>>;

/** Click and browser ids, never hashed: each platform's own (another platform's are no use to it). */
const OWN_IDS: Record<HashingPlatform, ReadonlyArray<'fbc' | 'fbp' | 'ttclid' | 'ttp'>> = {
  social_network: ['fbc', 'fbp'],
  short_video_ads: ['ttclid', 'ttp'],
};
const ALL_IDS = ['fbc', 'fbp', 'ttclid', 'ttp'] as const;

/**
 * What the service left out, by reason, with the events it concerns: a note in the answer's `messages` that names
 * members and event indexes, never a value.
 */
export class LeftOut {
  private readonly reasons = new Map<string, number[]>();

  add(reason: string, event: number): void {
    const events = this.reasons.get(reason) ?? [];
    if (events.at(-1) !== event) events.push(event);
    this.reasons.set(reason, events);
  }

  messages(): string[] {
    return [...this.reasons].map(([reason, events]) => {
      const named = events.slice(0, 10).join(', ') + (events.length > 10 ? ` and ${events.length - 10} more` : '');
      return `${reason} (events ${named}): left out.`;
    });
  }
}

/**
 * One event's `userData` as the platform receives it: person fields hashed (or in clear) by the platform's rules,
 * from plain values (`hashed: false`) or checked hashes; the IP address, user agent and the platform's own click
 * and browser ids as given. A member that is no hash when hashes were promised is an error at its path; a value
 * nothing usable remains of, or one the platform does not take, is left out with a note.
 */
export function platformUser(
  platform: HashingPlatform,
  userData: UserData,
  hashed: boolean,
  at: { event: number; errors: FieldError[]; leftOut: LeftOut },
): ServerEventUser {
  const user: ServerEventUser = {};
  const out = user as Record<string, string | string[] | undefined>;
  const hints = hashed ? {} : { country: userData.country };
  for (const [member, field] of Object.entries(PERSON_MEMBERS) as Array<[keyof typeof PERSON_MEMBERS, PersonField]>) {
    const given = userData[member];
    if (given === undefined) continue;
    const values = Array.isArray(given) ? given : [given];
    const taken = isHashedOn(platform, field);
    if (taken === undefined) {
      at.leftOut.add(`userData.${member}: ${platform} takes no ${field}`, at.event);
      continue;
    }
    const prepared = values.flatMap((value, index) => {
      if (hashed && !isSha256Hex(value)) {
        const path = `body/events/${at.event}/userData/${member}${Array.isArray(given) ? `/${index}` : ''}`;
        at.errors.push({ path, message: 'not a SHA-256 hash (64 hex digits), though hashed is true', code: 'ad_platform_rejected' });
        return [];
      }
      const ready = preparePersonField(platform, field, value, hints);
      if (ready === undefined)
        at.leftOut.add(
          hashed ? `userData.${member}: ${platform} takes it in clear, not as a hash` : `userData.${member}: no usable ${field}`,
          at.event,
        );
      return ready === undefined ? [] : [ready];
    });
    if (prepared.length > 0) out[field] = Array.isArray(given) ? prepared : prepared[0];
  }
  if (userData.clientIpAddress) user.clientIpAddress = userData.clientIpAddress;
  if (userData.clientUserAgent) user.clientUserAgent = userData.clientUserAgent;
  for (const id of ALL_IDS) {
    if (userData[id] === undefined) continue;
    if (OWN_IDS[platform].includes(id)) user[id] = userData[id];
    else at.leftOut.add(`userData.${id}: another platform's id`, at.event);
  }
  return user;
}
