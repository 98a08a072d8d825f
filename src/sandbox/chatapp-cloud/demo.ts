/**
 * What every new chatapp-cloud sandbox has, so a first connection needs no set-up: the sandbox's own app (its
 * secret signs the webhooks, its verify token answers the handshake) and one business account with a registered
 * number and a system user token for it. The service uses the app's values when CHATAPP_CLOUD_API_URL is unset.
 */
export const SANDBOX_APP_ID = '1000000000000001';
export const SANDBOX_APP_SECRET = 'sandbox-chatapp-cloud-app-secret-7f3a9c1e';
export const SANDBOX_VERIFY_TOKEN = 'sandbox-chatapp-cloud-verify-token';

export const DEMO_WABA_ID = '102290129340398';
export const DEMO_PHONE_NUMBER_ID = '106540352242922';
export const DEMO_DISPLAY_PHONE_NUMBER = '+1 555-010-0001';
export const DEMO_VERIFIED_NAME = 'Sandbox Demo Coffee';
export const DEMO_ACCESS_TOKEN = 'EAASandboxDemoSystemUserToken0chatappcloud';
/** The demo number's two-step verification PIN (it is registered already). */
export const DEMO_PIN = '123456';
