import type { TestApp } from '../app.js';
import { People } from './people.js';

export interface SandboxAudience {
  id: string;
  name: string;
  subtype: string;
  /** People received, added less removed (the platform matches a share of them). */
  people: number;
  /** The social network's upload sessions: the last batch seen, and whether the last came. */
  sessions?: Record<string, { seq: number; closed: boolean }>;
  /** The short-video platform's files applied to it. */
  files?: number;
}

/** The ad platforms' custom audiences as the people on them see and steer them. */
export class AudiencePeople extends People {
  constructor(app: () => TestApp, platform: 'social_network' | 'short_video_ads') {
    super(app, platform);
  }

  /** The ad account accepts (or has not accepted) the custom audience terms in its ads manager. */
  async acceptTerms(adAccountId: string, accepted: boolean): Promise<void> {
    await this.post('audience-terms', { adAccountId, accepted });
  }

  /** How long the ad account's next audiences populate, in seconds; null: until `finish`. */
  async populating(adAccountId: string, seconds: number | null): Promise<void> {
    await this.post('audience-populating', { adAccountId, seconds });
  }

  /** The platform finishes building an audience. */
  async finish(audienceId: string, status: 'ready' | 'error' = 'ready'): Promise<void> {
    await this.post(`audiences/${audienceId}/finish`, { status });
  }

  /** The ad account's audiences as the platform keeps them. */
  async onPlatform(adAccountId: string): Promise<SandboxAudience[]> {
    return (await this.get('audiences', { adAccountId })).audiences;
  }
}
