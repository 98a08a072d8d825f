import type { TestApp } from '../app.js';
import { People } from './people.js';

export interface ReceivedEvent {
  event: Record<string, any>;
  testEventCode: string | null;
  deduplicated: boolean;
}

export interface PixelOnPlatform {
  id: string;
  /** The short-video platform's numeric id of the pixel (`id` is its code there). */
  pixelId?: string;
  name: string;
  events: ReceivedEvent[];
}

/**
 * The ad platforms' pixels, server events and custom conversions: the social network's (parts/marketing-pixels.ts)
 * or the short-video platform's (short-video-ads/pixel-routes.ts, pixels named by code, ad accounts by advertiser).
 */
export class PixelPeople extends People {
  constructor(app: () => TestApp, platform: 'social_network' | 'short_video_ads' = 'social_network') {
    super(app, platform);
  }

  /** The ad account's next create of this kind is made, then its answer is lost. */
  async loseAnswer(adAccountId: string, edge: 'adspixels' | 'customconversions' | 'pixel' | 'custom_conversion'): Promise<void> {
    await this.post('pixel-lost-answer', { adAccountId, edge });
  }

  /** The ad account's pixels with every event each received, and its custom conversions. */
  onPlatform(adAccountId: string): Promise<{ pixels: PixelOnPlatform[]; customConversions: Array<Record<string, any>> }> {
    return this.get('pixels', { adAccountId });
  }

  /** A custom conversion is archived in the events manager. */
  async archive(customConversionId: string): Promise<void> {
    await this.post(`custom-conversions/${customConversionId}/archive`);
  }
}
