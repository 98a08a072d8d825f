import { expect } from 'chai';
import { ApiClient, AuthenticationApi } from 'tiktok-business-api-sdk-official';
import { SANDBOX_ADS_APP } from '../../../src/sandbox/short-video-ads/demo.js';
import { consent } from '../../support/sandbox/oauth.js';
import type { ClientCheck } from './sandbox.js';

/** A call of the SDK, whose answers come to a callback: the envelope's `data`, or its refusal as an Error. */
export function sdk(start: (done: (error: Error | null, answer: { data?: any } | null) => void) => void): Promise<any> {
  return new Promise((resolve, reject) => start((error, answer) => (error ? reject(error) : resolve(answer?.data))));
}

/** What a file of Business API checks works with: the demo person's token and first advertiser, and plain HTTP. */
export interface BusinessApi {
  token(): string;
  advertiserId(): string;
  /** A plain HTTP call of the Business API, for what the SDK has no call for: the envelope. */
  plain(path: string, init?: { method?: string; body?: unknown }): Promise<{ code: number; message: string; data: any }>;
}

/**
 * Points TikTok's Business SDK at the file's sandbox (`ApiClient.instance.basePath`: its paths carry
 * `/open_api/v1.3`) before the first test, and has the demo person grant the sandbox app their advertisers.
 */
export function businessApiOf(sandbox: ClientCheck): BusinessApi {
  let token = '';
  let advertiserId = '';
  before('point the SDK at the sandbox, and the demo person grants the sandbox app their advertisers', async () => {
    ApiClient.instance.basePath = `${sandbox.url()}/short_video_ads`;
    const authorize = new URL(`${sandbox.url()}/short_video_ads/portal/auth`);
    authorize.search = new URLSearchParams({
      app_id: SANDBOX_ADS_APP.appId,
      redirect_uri: 'https://app.example/ads/tiktok/callback',
      state: 's',
    }).toString();
    const code = (await consent(authorize, 'approve')).searchParams.get('auth_code')!;
    const issued = await sdk((done) =>
      new AuthenticationApi().oauth2AccessToken(
        { body: { app_id: SANDBOX_ADS_APP.appId, secret: SANDBOX_ADS_APP.secret, auth_code: code } },
        done,
      ),
    );
    expect(issued.advertiser_ids).to.have.length.at.least(1);
    token = issued.access_token;
    advertiserId = issued.advertiser_ids[0];
  });
  return {
    token: () => token,
    advertiserId: () => advertiserId,
    plain: async (path, init = {}) => {
      const answer = await fetch(`${sandbox.url()}/short_video_ads/open_api/v1.3${path}`, {
        method: init.method ?? 'GET',
        headers: { 'Access-Token': token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      expect(answer.status).to.equal(200);
      return (await answer.json()) as { code: number; message: string; data: any };
    },
  };
}
