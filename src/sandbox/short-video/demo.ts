/**
 * What every new short_video sandbox has, so a first connection needs no set-up: the sandbox's own Login Kit app
 * (its secret also signs the webhooks) and one creator who is signed in on the consent page. The service uses
 * this app while SHORT_VIDEO_CLIENT_KEY is unset.
 */
export const SANDBOX_APP = { clientKey: 'sbawsandboxshortvideo0001', clientSecret: 'sandbox-short-video-client-secret-4b1d' };

export const DEMO_USER = {
  openId: '-000SANDBOXdemoCreatorOpenId0001',
  unionId: 'sandbox-union-0001',
  displayName: 'Sandbox Demo Creator',
  username: 'sandbox.creator',
  bio: 'Short clips from the sandbox.',
};
