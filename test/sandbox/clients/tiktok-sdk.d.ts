/** The few parts of TikTok's Business SDK the client-library checks use (the package ships JavaScript, no types). */
declare module 'tiktok-business-api-sdk-official' {
  /** Every call ends in a callback: the envelope (its `code` and `message` removed when `code` is 0) or an Error. */
  type Callback = (error: Error | null, answer: { data?: any; request_id?: string } | null, response: unknown) => void;
  type Options = Record<string, unknown>;

  export class ApiClient {
    static instance: ApiClient;
    basePath: string;
  }
  export class AuthenticationApi {
    constructor(client?: ApiClient);
    oauth2AccessToken(opts: { body: Options }, callback: Callback): void;
    oauth2AdvertiserGet(appId: string, secret: string, accessToken: string, callback: Callback): void;
  }
  export class AccountManagementApi {
    constructor(client?: ApiClient);
    advertiserInfo(advertiserIds: string[], accessToken: string, opts: Options, callback: Callback): void;
  }
  export class IdentityApi {
    constructor(client?: ApiClient);
    identityGet(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    identityVideoInfo(
      accessToken: string,
      advertiserId: string,
      identityType: string,
      identityId: string,
      itemId: string,
      opts: Options,
      callback: Callback,
    ): void;
  }
  export class MeasurementApi {
    constructor(client?: ApiClient);
    pixelList(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    pixelCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
  }
  export class ToolApi {
    constructor(client?: ApiClient);
    toolRegion(
      advertiserId: string,
      placements: string[],
      objectiveType: string,
      accessToken: string,
      opts: Options,
      callback: Callback,
    ): void;
    toolInterestCategory(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    toolActionCategory(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
  }
  export class CampaignCreationApi {
    constructor(client?: ApiClient);
    campaignCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    campaignGet(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    campaignUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    campaignStatusUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
  }
  export class AdgroupApi {
    constructor(client?: ApiClient);
    adgroupCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    adgroupGet(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    adgroupUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    adgroupStatusUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
  }
  export class AdApi {
    constructor(client?: ApiClient);
    adCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    adGet(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    adUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    adStatusUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
  }
  export class ReportingApi {
    constructor(client?: ApiClient);
    reportIntegratedGet(reportType: string, accessToken: string, opts: Options, callback: Callback): void;
    reportTaskCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    reportTaskCheck(taskId: string, advertiserId: string, accessToken: string, callback: Callback): void;
  }
  export class AudienceApi {
    constructor(client?: ApiClient);
    dmpCustomAudienceFileUpload(accessToken: string, opts: Options, callback: Callback): void;
    dmpCustomAudienceCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    dmpCustomAudienceUpdate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    dmpCustomAudienceGet(advertiserId: string, ids: string[], accessToken: string, opts: Options, callback: Callback): void;
    dmpCustomAudienceList(advertiserId: string, accessToken: string, opts: Options, callback: Callback): void;
    dmpCustomAudienceLookalikeCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    dmpCustomAudienceRuleCreate(accessToken: string, opts: { body: Options }, callback: Callback): void;
    dmpCustomAudienceDelete(accessToken: string, opts: { body: Options }, callback: Callback): void;
  }
}
