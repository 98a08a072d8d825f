import { allFakers, type Faker, faker as englishFaker } from '@faker-js/faker';
import { type CountryCode, getExampleNumber, isValidPhoneNumber } from 'libphonenumber-js';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import type { LeadFormQuestion } from '../../platforms/capabilities/leads.js';

/**
 * Made-up people for the lead simulator, in the form's language and country: names, addresses and postcodes of
 * that locale (faker's data), emails on the reserved `example.com` domain only (RFC 2606: never a real inbox),
 * mobile numbers valid for the country (libphonenumber's), and answers to the form's own questions.
 */

/** The faker of a form locale (`de_DE` → `de`, `en_GB`, `fr_CA`), English where faker has none. */
function fakerFor(locale: string): Faker {
  const fakers = allFakers as Record<string, Faker>;
  return fakers[locale] ?? fakers[locale.split('_')[0]!] ?? englishFaker;
}

/** A mobile number valid for the country: its example number with the last digits drawn, checked; else the example. */
function phoneFor(country: string, faker: Faker): string {
  const example = getExampleNumber(country as CountryCode, mobileExamples);
  if (!example) return `+1202555${faker.string.numeric(4)}`;
  const national = example.nationalNumber;
  for (let tries = 0; tries < 10; tries += 1) {
    const drawn = `+${example.countryCallingCode}${national.slice(0, -4)}${faker.string.numeric(4)}`;
    if (isValidPhoneNumber(drawn)) return drawn;
  }
  return example.number;
}

const MARITAL = ['single', 'married', 'divorced', 'widowed'];
const RELATIONSHIP = ['single', 'in_a_relationship', 'engaged', 'married'];
const MILITARY = ['none', 'veteran', 'active_duty', 'reserve'];

/** A person's answers to every question of a form, by each question's key. */
export function simulatedAnswers(questions: LeadFormQuestion[], locale: string): Record<string, string[]> {
  const faker = fakerFor(locale);
  const country = locale.split('_')[1] ?? 'US';
  const sex = faker.person.sexType();
  const firstName = faker.person.firstName(sex);
  const lastName = faker.person.lastName(sex);
  const company = faker.company.name();
  const handle = (name: string) =>
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase() || 'lead';
  const email = (domain: string) => `${handle(firstName)}.${handle(lastName)}@${domain}`;
  const answer = (question: LeadFormQuestion): string => {
    switch (question.type) {
      case 'EMAIL':
        return email('example.com');
      case 'WORK_EMAIL':
        return email(`${handle(company).slice(0, 20)}.example`);
      case 'FULL_NAME':
        return `${firstName} ${lastName}`;
      case 'FIRST_NAME':
        return firstName;
      case 'LAST_NAME':
        return lastName;
      case 'PHONE':
      case 'WORK_PHONE_NUMBER':
        return phoneFor(country, faker);
      case 'COMPANY_NAME':
        return company;
      case 'JOB_TITLE':
        return faker.person.jobTitle();
      case 'STREET_ADDRESS':
        return faker.location.streetAddress();
      case 'CITY':
        return faker.location.city();
      case 'STATE':
      case 'PROVINCE':
        return faker.location.state();
      case 'ZIP':
      case 'POST_CODE':
        return faker.location.zipCode();
      case 'COUNTRY':
        return country;
      case 'DATE_OF_BIRTH':
        return faker.date.birthdate({ mode: 'age', min: 18, max: 80 }).toISOString().slice(0, 10);
      case 'GENDER':
        return sex;
      case 'MARITAL_STATUS':
        return faker.helpers.arrayElement(MARITAL);
      case 'RELATIONSHIP_STATUS':
        return faker.helpers.arrayElement(RELATIONSHIP);
      case 'MILITARY_STATUS':
        return faker.helpers.arrayElement(MILITARY);
      case 'DATE_TIME':
        return faker.date.soon({ days: 14 }).toISOString();
      case 'STORE_LOOKUP':
        return faker.location.city();
      case 'CUSTOM':
        return question.options.length > 0 ? faker.helpers.arrayElement(question.options).key : faker.company.buzzPhrase();
      default:
        return faker.word.words(3);
    }
  };
  return Object.fromEntries(questions.map((question) => [question.key, [answer(question)]]));
}

/** Made-up ad, ad set and campaign ids, as an ad platform's (long numbers). */
export function simulatedAdIds(): { adId: string; adsetId: string; campaignId: string } {
  const base = `1202${englishFaker.string.numeric(11)}`;
  return { campaignId: `${base}0`, adsetId: `${base}1`, adId: `${base}2` };
}
