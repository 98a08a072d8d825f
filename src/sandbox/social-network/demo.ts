/**
 * What every new social_network sandbox has, so a first connection needs no set-up: the sandbox's own app
 * (its secret signs the webhooks and deauthorize callbacks) and a person who manages two pages and two ad
 * accounts. The service uses this app while SOCIAL_NETWORK_APP_ID is unset.
 */
export const SANDBOX_APP = { id: '1000000000000101', secret: 'sandbox-social-network-app-secret-4b8e2d', name: 'Sandbox Social App' };

export const DEMO_USER = { id: '10000000000000001', name: 'Sam Sandbox' };
export const DEMO_PAGES = [
  {
    id: '108234567890123',
    name: 'Acme Coffee',
    username: 'acmecoffee',
    category: 'Coffee shop',
    about: 'Specialty coffee roasted in Berlin since 2014.',
    followers: 12840,
  },
  {
    id: '108234567890456',
    name: 'Acme Coffee Kreuzberg',
    username: 'acmekreuzberg',
    category: 'Café',
    about: 'Espresso bar by the canal.',
    followers: 2310,
  },
];
export const DEMO_AD_ACCOUNTS = [
  {
    id: 'act_1234567890',
    name: 'Acme Coffee Ads',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    status: 1,
    business: 'Acme Coffee GmbH',
    defaultDsaBeneficiary: 'Acme Coffee GmbH',
    defaultDsaPayor: 'Acme Coffee GmbH',
  },
  { id: 'act_2234567890', name: 'Acme Old Ads', currency: 'USD', timezone: 'America/New_York', status: 101, business: null },
];
