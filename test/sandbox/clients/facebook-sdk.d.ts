/** The few parts of Meta's Business SDK the client-library checks use (the package ships Flow sources, no types). */
declare module 'facebook-nodejs-business-sdk' {
  type Fields = string[];
  type Params = Record<string, unknown>;

  /** A list page: the objects, and the way to the next page (`paging.next`, fetched as the Graph gave it). */
  interface Cursor<T> extends Array<T> {
    hasNext(): boolean;
    next(): Promise<Cursor<T>>;
    paging?: { cursors?: { before?: string; after?: string }; next?: string };
  }

  class CrudObject {
    constructor(id?: string | null, data?: Params, parentId?: string, api?: FacebookAdsApi);
    readonly id: string;
    _data: Record<string, unknown>;
    get(fields: Fields, params?: Params): Promise<this>;
    update(fields: Fields, params?: Params): Promise<Record<string, unknown>>;
    delete(fields: Fields, params?: Params): Promise<Record<string, unknown>>;
  }

  export class FacebookAdsApi {
    static init(accessToken: string, locale?: string, crashLog?: boolean): FacebookAdsApi;
    static get GRAPH(): string;
    call(method: string, path: string[] | string, params?: Params): Promise<Record<string, unknown>>;
  }
  export class User extends CrudObject {
    getAccounts(fields: Fields, params?: Params): Promise<Cursor<Page>>;
  }
  export class Page extends CrudObject {
    createFeed(fields: Fields, params: Params): Promise<Page>;
    createPhoto(fields: Fields, params: Params): Promise<Photo>;
    getPublishedPosts(fields: Fields, params?: Params): Promise<Cursor<PagePost>>;
    getInsights(fields: Fields, params: Params): Promise<Cursor<CrudObject>>;
    getLeadGenForms(fields: Fields, params?: Params): Promise<Cursor<LeadgenForm>>;
    createSubscribedApp(fields: Fields, params: Params): Promise<Page>;
    getSubscribedApps(fields: Fields, params?: Params): Promise<Cursor<CrudObject>>;
    deleteSubscribedApps(params?: Params): Promise<Record<string, unknown>>;
  }
  export class PagePost extends CrudObject {
    getComments(fields: Fields, params?: Params): Promise<Cursor<Comment>>;
    createComment(fields: Fields, params: Params): Promise<Comment>;
    getInsights(fields: Fields, params: Params): Promise<Cursor<CrudObject>>;
  }
  export class Photo extends CrudObject {}
  export class Comment extends CrudObject {}
  export class LeadgenForm extends CrudObject {
    getLeads(fields: Fields, params?: Params): Promise<Cursor<Lead>>;
  }
  export class Lead extends CrudObject {}
  export class AdAccount extends CrudObject {
    createCampaign(fields: Fields, params: Params): Promise<CrudObject>;
    createAdSet(fields: Fields, params: Params): Promise<CrudObject>;
    createAdCreative(fields: Fields, params: Params): Promise<CrudObject>;
    createAd(fields: Fields, params: Params): Promise<CrudObject>;
    getAds(fields: Fields, params?: Params): Promise<Cursor<Ad>>;
  }
  export class Ad extends CrudObject {
    getInsights(fields: Fields, params: Params): Promise<Cursor<CrudObject>>;
  }
}
