/** The sandbox's Threads app, used by the service while SOCIAL_THREADS_APP_ID is unset, and its first person. */
export const SANDBOX_THREADS_APP = { id: '2000000000000201', secret: 'sandbox-social-threads-app-secret-9c1f7a' };
export const DEMO_THREADS_USER = {
  id: '17841400000000001',
  username: 'acme.coffee',
  name: 'Acme Coffee',
  biography: 'Coffee, threads and the odd roast.',
};
