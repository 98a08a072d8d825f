import type { TestApp } from '../app.js';
import { People } from './people.js';

export interface Advertiser {
  advertiser_id: string;
  name: string;
  currency: string;
  display_timezone: string;
  status: string;
}

/** The people of the ads platform: the signed-in person's advertisers. */
export class ShortVideoAdsPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'short_video_ads');
  }

  /** Another advertiser the signed-in person owns. */
  newAdvertiser(fields: Partial<Omit<Advertiser, 'advertiser_id'>>): Promise<Advertiser> {
    return this.post('advertisers', fields);
  }
}
