import type { TestApp } from '../app.js';
import { BotchatPeople } from './botchat.js';
import { CalendarPeople } from './calendar.js';
import { ChatappCloudPeople } from './chatapp-cloud.js';
import { CommercePeople } from './commerce.js';
import { InstantFormPeople, LeadAdsPeople } from './lead-ads.js';
import { MessengerPeople } from './messenger.js';
import { QrchatPeople } from './qrchat.js';
import { SearchSuitePeople } from './search-suite.js';
import { ShortVideoAdsPeople } from './short-video-ads.js';
import { ShortVideoPeople } from './short-video.js';
import { SocialNetworkPeople } from './social-network.js';
import { SocialThreadsPeople } from './social-threads.js';
import { WalletPeople } from './wallet.js';

/** The people of every platform of an app's sandbox. */
export interface Sandbox {
  botchat: BotchatPeople;
  calendar: CalendarPeople;
  chatappCloud: ChatappCloudPeople;
  /** Lead ads: pages' forms on `socialNetwork`, advertisers' instant forms on `shortVideoAds`. */
  leadAds: LeadAdsPeople;
  instantForms: InstantFormPeople;
  /** The catalogs' side of `socialNetwork`. */
  commerce: CommercePeople;
  /** Messenger's side of `socialNetwork`. */
  messenger: MessengerPeople;
  qrchat: QrchatPeople;
  searchSuite: SearchSuitePeople;
  shortVideo: ShortVideoPeople;
  shortVideoAds: ShortVideoAdsPeople;
  socialNetwork: SocialNetworkPeople;
  socialThreads: SocialThreadsPeople;
  wallet: WalletPeople;
}

/** `app` is read at each call, so the drivers can be made before the app starts. */
export function sandboxOf(app: () => TestApp): Sandbox {
  return {
    botchat: new BotchatPeople(app),
    calendar: new CalendarPeople(app),
    chatappCloud: new ChatappCloudPeople(app),
    leadAds: new LeadAdsPeople(app),
    instantForms: new InstantFormPeople(app),
    commerce: new CommercePeople(app),
    messenger: new MessengerPeople(app),
    qrchat: new QrchatPeople(app),
    searchSuite: new SearchSuitePeople(app),
    shortVideo: new ShortVideoPeople(app),
    shortVideoAds: new ShortVideoAdsPeople(app),
    socialNetwork: new SocialNetworkPeople(app),
    socialThreads: new SocialThreadsPeople(app),
    wallet: new WalletPeople(app),
  };
}
