import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js';
import { sha256Hex } from '../../../lib/crypto.js';
import type { PlatformId } from '../../../platforms/types.js';
import { US_STATE_CODES } from './us-states.js';

/**
 * The fields of a person that ad platforms match on (Conversions API / Events API `user_data`, customer-list
 * audiences). They leave the service only normalised and SHA-256-hashed — except the few a platform wants in clear
 * (TikTok's city, state and country). The IP address, user agent and click or browser ids (`fbc`, `fbp`,
 * `ttclid`, `ttp`) are not person fields: they are never hashed and never pass through here.
 */
export type PersonField =
  'email' | 'phone' | 'firstName' | 'lastName' | 'city' | 'state' | 'zip' | 'country' | 'gender' | 'dateOfBirth' | 'externalId';

export interface PersonHints {
  /** The person's country (ISO 3166-1 alpha-2, any case), for a phone number written without its country code and for a zip code. */
  country?: string;
}

/** Which ad platforms have matching rules here: the two with ads. */
export type HashingPlatform = Extract<PlatformId, 'social_network' | 'short_video_ads'>;

interface FieldRule {
  normalise(value: string, hints: PersonHints): string | undefined;
  /** false: the platform wants the normalised value in clear (a hash of it would never match). */
  hashed: boolean;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** A value that is a SHA-256 hash already (64 hex digits): it is passed on, lowercased, never hashed twice. */
export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value.trim());
}

/**
 * What the platform receives for one field of a person: the SHA-256 hex of the value normalised as that platform
 * documents it (the social network: Conversions API "customer information parameters" and Custom Audiences;
 * the short-video platform: Events API 2.0 and its audiences), or the normalised value itself for a field it
 * takes in clear. A value that is a hash already passes through lowercased (or is dropped where the platform wants the
 * field in clear). `undefined` when nothing usable
 * remains (an address without `@`, a number no country could have, a gender other than f/m) or when the
 * platform does not take the field (TikTok: gender, date of birth).
 */
export function preparePersonField(
  platform: HashingPlatform,
  field: PersonField,
  value: string,
  hints: PersonHints = {},
): string | undefined {
  const rule = RULES[platform][field];
  if (!rule) return undefined;
  // A hash of a field the platform takes in clear cannot be undone: it is dropped rather than sent as garbage.
  if (isSha256Hex(value)) return rule.hashed ? value.trim().toLowerCase() : undefined;
  const normalised = rule.normalise(value.normalize('NFC'), hints);
  if (normalised === undefined || normalised === '') return undefined;
  return rule.hashed ? sha256Hex(normalised) : normalised;
}

/** Whether the platform takes the field as a hash (false: in clear; undefined: it does not take the field). */
export function isHashedOn(platform: HashingPlatform, field: PersonField): boolean | undefined {
  return RULES[platform][field]?.hashed;
}

function email(value: string): string | undefined {
  const trimmed = value.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? trimmed : undefined;
}

/**
 * The number in E.164 (`+` and digits). The platforms want the country code always; a number written without
 * `+` is read first as digits that begin with their country code (the social network's rule), then, if that is
 * no valid number and the person's country is known, as a national number of that country ("(650) 555-1212" in
 * the US). A number beginning with a trunk `0` is national whenever the country is known.
 */
function e164(value: string, hints: PersonHints): string | undefined {
  const trimmed = value.trim();
  const country = countryCode(hints.country);
  if (/^(\+|00)/.test(trimmed)) return possible(parsePhoneNumberFromString(`+${digitsOf(trimmed.replace(/^00/, ''))}`));
  const digits = digitsOf(trimmed);
  if (digits === '') return undefined;
  const national = country ? parsePhoneNumberFromString(trimmed, country) : undefined;
  if (digits.startsWith('0') && national?.isValid()) return national.number;
  const international = parsePhoneNumberFromString(`+${digits.replace(/^0+/, '')}`);
  if (international?.isValid()) return international.number;
  if (national?.isValid()) return national.number;
  return possible(international);
}

function possible(phone: PhoneNumber | undefined): string | undefined {
  return phone?.isPossible() ? phone.number : undefined;
}

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

function countryCode(value: string | undefined): CountryCode | undefined {
  const code = value?.trim().toUpperCase();
  return code && isSupportedCountry(code) ? code : undefined;
}

/** Names: lowercase, without punctuation or spaces; letters outside a–z stay, in UTF-8 ("Valéry" → "valéry"). */
function name(value: string): string {
  return value.toLowerCase().replace(/[\p{P}\p{S}\s\p{N}]/gu, '');
}

/** Cities: lowercase letters only, no spaces, punctuation or digits ("New York" → "newyork"). */
function city(value: string): string {
  return value.toLowerCase().replace(/[^\p{L}\p{M}]/gu, '');
}

/** States: a US state's two-letter code when it is one (named or coded), else lowercase letters and digits only. */
function state(value: string): string {
  const compact = value.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');
  return US_STATE_CODES.get(compact) ?? compact;
}

/** Zip codes: lowercase, no spaces or dashes; a US ZIP+4 keeps its first five digits ("94025-1234" → "94025"). */
function zip(value: string, hints: PersonHints): string | undefined {
  const trimmed = value.trim().toLowerCase();
  const us = /^\d{5}(?:[\s-]?\d{4})?$/.exec(trimmed);
  if (us && (countryCode(hints.country) ?? 'US') === 'US') return trimmed.slice(0, 5);
  const compact = trimmed.replace(/[\s-]/g, '');
  return compact.length >= 2 ? compact : undefined;
}

function country(value: string): string | undefined {
  return countryCode(value)?.toLowerCase();
}

function gender(value: string): string | undefined {
  const word = value.trim().toLowerCase();
  if (word === 'f' || word === 'female') return 'f';
  if (word === 'm' || word === 'male') return 'm';
  return undefined;
}

/** YYYYMMDD from 1997-02-16, 1997/02/16 or 19970216; a date that does not exist, or before 1900 or ahead, is dropped. */
function dateOfBirth(value: string): string | undefined {
  const match = /^(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const real = date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return real && Number(year) >= 1900 && date.getTime() <= Date.now() ? `${year}${month}${day}` : undefined;
}

/** External ids are the advertiser's own: trimmed only (they must match what its pixel sends, case and all). */
function externalId(value: string): string {
  return value.trim();
}

const hashed = (normalise: FieldRule['normalise']): FieldRule => ({ normalise, hashed: true });
const clear = (normalise: FieldRule['normalise']): FieldRule => ({ normalise, hashed: false });

const RULES: Record<HashingPlatform, Partial<Record<PersonField, FieldRule>>> = {
  // Conversions API customer information parameters and Custom Audiences: everything hashed; the phone as
  // digits with the country code, no `+` ("16505551212").
  social_network: {
    email: hashed(email),
    phone: hashed((value, hints) => e164(value, hints)?.slice(1)),
    firstName: hashed(name),
    lastName: hashed(name),
    city: hashed(city),
    state: hashed(state),
    zip: hashed(zip),
    country: hashed(country),
    gender: hashed(gender),
    dateOfBirth: hashed(dateOfBirth),
    externalId: hashed(externalId),
  },
  // Events API 2.0 and customer-file audiences: the phone in E.164 with its `+` ("+16505551212") before hashing;
  // city, state and country in clear; no gender or date of birth.
  short_video_ads: {
    email: hashed(email),
    phone: hashed(e164),
    firstName: hashed(name),
    lastName: hashed(name),
    city: clear(city),
    state: clear(state),
    zip: hashed(zip),
    country: clear(country),
    externalId: hashed(externalId),
  },
};
