import type { Config } from '../lib/config.js';
import { BotchatAdapter } from './botchat/adapter.js';
import { BotchatClient } from './botchat/client.js';
import { ChatappCloudAdapter } from './chatapp-cloud/adapter.js';
import { QrchatAdapter } from './qrchat/adapter.js';
import { createQrchatDriver } from './qrchat/drivers.js';
import { SANDBOX_APP_SECRET, SANDBOX_VERIFY_TOKEN } from '../sandbox/chatapp-cloud/demo.js';
import { CalendarAdapter, SearchSuiteAdapter, type SearchSuiteEndpoints } from './search-suite/adapter.js';
import { SANDBOX_CLIENT } from '../sandbox/search-suite/platform.js';
import { SocialNetworkAdapter } from './social-network/adapter.js';
import { socialNetworkEndpoints } from './social-network/endpoints.js';
import { SocialThreadsAdapter } from './social-threads/adapter.js';
import { socialThreadsEndpoints } from './social-threads/endpoints.js';
import { ShortVideoAdsAdapter } from './short-video-ads/adapter.js';
import { ShortVideoAdapter } from './short-video/adapter.js';
import { shortVideoAdsEndpoints, shortVideoEndpoints } from './short-video/endpoints.js';
import type { PlatformAdapter, PlatformId } from './types.js';
import { storageFor, storageKeyFor } from '../modules/media/storage.js';

/** Every adapter, built once per process with its base URL: the real platform's, or the sandbox's. */
export class Platforms {
  readonly botchat: BotchatAdapter;
  readonly chatappCloud: ChatappCloudAdapter;
  readonly qrchat: QrchatAdapter;
  readonly socialNetwork: SocialNetworkAdapter;
  private readonly byId: Map<PlatformId, PlatformAdapter>;

  constructor(config: Config, sandboxUrl: string | null) {
    const urlOf = (configured: string | undefined, sandboxPath: string): string => {
      if (configured) return configured.replace(/\/$/, '');
      if (!sandboxUrl) throw new Error(`no URL is configured for ${sandboxPath} and the sandbox is off`);
      return `${sandboxUrl}/${sandboxPath}`;
    };
    this.botchat = new BotchatAdapter(new BotchatClient(urlOf(config.platformUrls.botchat, 'botchat')), `${config.publicUrl}/webhooks/botchat`);
    // The sandbox's app stands in only while the sandbox serves the platform: a real Graph URL needs real values.
    const cloudSandbox = !config.platformUrls.chatappCloud;
    this.chatappCloud = new ChatappCloudAdapter({
      apiUrl: urlOf(config.platformUrls.chatappCloud, 'chatapp-cloud/v25.0'), webhookUrl: `${config.publicUrl}/webhooks/chatapp-cloud`,
      appSecret: config.chatappCloud.appSecret ?? (cloudSandbox ? SANDBOX_APP_SECRET : undefined),
      verifyToken: config.chatappCloud.verifyToken ?? (cloudSandbox ? SANDBOX_VERIFY_TOKEN : undefined),
    });
    this.qrchat = new QrchatAdapter(createQrchatDriver(config.qrchat.driver, sandboxUrl));
    const searchSuite = searchSuiteEndpoints(config, sandboxUrl);
    this.socialNetwork = new SocialNetworkAdapter(socialNetworkEndpoints(config, sandboxUrl));
    this.byId = new Map<PlatformId, PlatformAdapter>([
      [this.botchat.id, this.botchat],
      [this.chatappCloud.id, this.chatappCloud],
      [this.qrchat.id, this.qrchat],
      ['search_suite', new SearchSuiteAdapter(searchSuite)],
      ['calendar', new CalendarAdapter(searchSuite)],
      // A video's bytes are uploaded from storage: the adapter opens one media file, nothing more.
      ['short_video', new ShortVideoAdapter(shortVideoEndpoints(config, sandboxUrl),
        (mediaId, range) => storageFor(config).read(storageKeyFor(mediaId), range))],
      ['short_video_ads', new ShortVideoAdsAdapter(shortVideoAdsEndpoints(config, sandboxUrl))],
      [this.socialNetwork.id, this.socialNetwork],
      ['social_threads', new SocialThreadsAdapter(socialThreadsEndpoints(config, sandboxUrl))],
    ]);
  }

  /** Whether any platform needs the sandbox (its URL is not configured). */
  static needSandbox(config: Config): boolean {
    return config.sandbox.mode === 'auto'
      && (Object.values(config.platformUrls).some((url) => !url) || config.qrchat.driver === 'sandbox' || Object.values(config.oauthApps).some((app) => !app));
  }

  get(id: string): PlatformAdapter | undefined {
    return this.byId.get(id as PlatformId);
  }

  all(): PlatformAdapter[] {
    return [...this.byId.values()];
  }
}

/** The real hosts with the configured app, or the sandbox's prefixes with its demo client. */
function searchSuiteEndpoints(config: Config, sandboxUrl: string | null): SearchSuiteEndpoints {
  const app = config.oauthApps.searchSuite;
  if (app) {
    return {
      ...app,
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth', tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke', accountsApiUrl: 'https://mybusinessaccountmanagement.googleapis.com',
      businessInfoApiUrl: 'https://mybusinessbusinessinformation.googleapis.com', calendarApiUrl: 'https://www.googleapis.com/calendar/v3',
      localPostsApiUrl: 'https://mybusiness.googleapis.com/v4',
    };
  }
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/search_suite`;
  return {
    clientId: SANDBOX_CLIENT.id, clientSecret: SANDBOX_CLIENT.secret,
    authorizeUrl: `${base}/o/oauth2/v2/auth`, tokenUrl: `${base}/token`, revokeUrl: `${base}/revoke`,
    accountsApiUrl: `${base}/accounts`, businessInfoApiUrl: `${base}/businessinfo`, calendarApiUrl: `${base}/calendar/v3`,
    localPostsApiUrl: `${base}/v4`,
  };
}
