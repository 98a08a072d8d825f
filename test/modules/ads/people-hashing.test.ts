import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { isHashedOn, preparePersonField } from '../../../src/modules/ads/people/hashing.js';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

describe('ads people hashing — each platform normalises and hashes person fields as it documents', () => {
  describe('the social network (Conversions API customer information parameters, Custom Audiences)', () => {
    // The examples the Conversions API's "customer information parameters" page publishes, input → expected hash.
    it('gives the hashes of its own published examples', () => {
      const examples: [Parameters<typeof preparePersonField>[1], string, string, string?][] = [
        ['email', 'John_Smith@gmail.com', '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f'],
        ['phone', '(650)555-1212', 'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176', 'US'],
        ['firstName', 'Mary', '6915771be1c5aa0c886870b6951b03d7eafc121fea0e80a5ea83beb7c449f4ec'],
        ['firstName', '정', '8fa8cd9c440be61d0151429310034083132b35975c4bea67fdd74158eb51db14'],
        ['lastName', 'Valéry', '08e1996b5dd49e62a4b4c010d44e4345592a863bb9f8e3976219bac29417149c'],
      ];
      for (const [field, input, expected, country] of examples) {
        expect(preparePersonField('social_network', field, input, { country }), `${field} ${input}`).to.equal(expected);
      }
    });

    it('normalises each field to its documented form before hashing', () => {
      const cases: [Parameters<typeof preparePersonField>[1], string, string, string?][] = [
        ['email', '  Joe@Eg.COM ', 'joe@eg.com'],
        ['phone', '+1 (616) 954-78 88', '16169547888'],
        ['phone', '1 (616) 954-78 88', '16169547888'],
        ['phone', '0044 20 7946 0958', '442079460958'],
        ['phone', '020 7946 0958', '442079460958', 'gb'],
        ['firstName', 'Jean-Luc', 'jeanluc'],
        ['firstName', 'Vale\u0301ry', 'valéry'], // decomposed é is composed first (UTF-8 NFC)
        ['lastName', "O'Brien", 'obrien'],
        ['city', 'New York', 'newyork'],
        ['city', 'Menlo Park', 'menlopark'],
        ['state', 'California', 'ca'],
        ['state', 'CA', 'ca'],
        ['state', 'Île-de-France', 'îledefrance'],
        ['zip', '94025-1234', '94025'],
        ['zip', 'M1 1AE', 'm11ae', 'GB'],
        ['country', ' US ', 'us'],
        ['gender', 'Female', 'f'],
        ['gender', 'm', 'm'],
        ['dateOfBirth', '1997-02-16', '19970216'],
        ['dateOfBirth', '19970216', '19970216'],
        ['externalId', '  Cust-0042 ', 'Cust-0042'],
      ];
      for (const [field, input, normalised, country] of cases) {
        expect(preparePersonField('social_network', field, input, { country }), `${field} ${input}`).to.equal(sha256(normalised));
      }
    });
  });

  describe('the short-video platform (Events API 2.0, customer-file audiences)', () => {
    it('hashes the phone in E.164 with its +, and email, names, zip and external id after normalising', () => {
      const cases: [Parameters<typeof preparePersonField>[1], string, string, string?][] = [
        ['phone', '(650)555-1212', '+16505551212', 'US'],
        ['phone', '16505551212', '+16505551212'],
        ['email', ' John_Smith@gmail.com', 'john_smith@gmail.com'],
        ['firstName', 'Mary Ann', 'maryann'],
        ['zip', '94025', '94025'],
        ['externalId', 'Cust-0042', 'Cust-0042'],
      ];
      for (const [field, input, normalised, country] of cases) {
        expect(preparePersonField('short_video_ads', field, input, { country }), `${field} ${input}`).to.equal(sha256(normalised));
      }
    });

    it('sends city, state and country normalised but in clear, and takes no gender or date of birth', () => {
      expect(preparePersonField('short_video_ads', 'city', 'New York')).to.equal('newyork');
      expect(preparePersonField('short_video_ads', 'state', 'California')).to.equal('ca');
      expect(preparePersonField('short_video_ads', 'country', 'DE')).to.equal('de');
      expect(isHashedOn('short_video_ads', 'city')).to.equal(false);
      expect(preparePersonField('short_video_ads', 'gender', 'f')).to.equal(undefined);
      expect(preparePersonField('short_video_ads', 'dateOfBirth', '1997-02-16')).to.equal(undefined);
      expect(isHashedOn('short_video_ads', 'gender')).to.equal(undefined);
    });
  });

  it('passes a value that is a SHA-256 hash already through, lowercased, and never hashes it twice', () => {
    const hash = '62A14E44F765419D10FEA99367361A727C12365E2520F32218D505ED9AA0F62F';
    expect(preparePersonField('social_network', 'email', hash)).to.equal(hash.toLowerCase());
    expect(preparePersonField('short_video_ads', 'phone', ` ${hash} `)).to.equal(hash.toLowerCase());
    // a hash of a field the platform wants in clear cannot be undone: it is dropped
    expect(preparePersonField('short_video_ads', 'city', hash)).to.equal(undefined);
  });

  it('gives nothing for a value nothing usable remains of', () => {
    for (const [field, input] of [
      ['email', 'not-an-address'],
      ['phone', '12'],
      ['phone', 'call me'],
      ['country', 'Narnia'],
      ['gender', 'x'],
      ['dateOfBirth', '1997-02-30'],
      ['dateOfBirth', '1850-01-01'],
      ['firstName', '  '],
    ] as const) {
      expect(preparePersonField('social_network', field, input), `${field} ${input}`).to.equal(undefined);
    }
  });
});
