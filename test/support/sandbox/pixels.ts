import type { TestApp } from '../app.js';
import { People } from './people.js';

export interface ReceivedEvent {
  event: Record<string, any>;
  testEventCode: string | null;
  deduplicated: boolean;
}

export interface PixelOnPlatform {
  id: string;
  name: string;
  events: ReceivedEvent[];
}

/** The social network's pixels, Conversions API and custom conversions (parts/marketing-pixels.ts). */
export class PixelPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** The ad account's next create on `edge` is made, then its answer is lost. */
  async loseAnswer(adAccountId: string, edge: 'adspixels' | 'customconversions'): Promise<void> {
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
