import type { AdapterAccount } from '../types.js';

/** A call to action on a creative, in the platform's words (`SHOP_NOW`), with the link it opens where it differs. */
export interface CreativeCallToAction {
  type: string;
  link?: string;
}

/**
 * A creative's new unpublished post, with its media already in the ad account's libraries (an image by the hash
 * of `uploadImage`, a video by the id of `uploadVideo`) or given by a public URL the platform fetches.
 */
export type CreativeStory =
  | {
      kind: 'link';
      pageId: string;
      link: string;
      message?: string;
      headline?: string;
      description?: string;
      image?: { hash: string } | { url: string };
      callToAction?: CreativeCallToAction;
    }
  | { kind: 'photo'; pageId: string; image: { hash: string } | { url: string }; caption?: string }
  | {
      kind: 'video';
      pageId: string;
      videoId: string;
      thumbnailUrl: string;
      title?: string;
      message?: string;
      callToAction?: CreativeCallToAction;
    };

/** What a creative shows: an existing page post (`{pageId}_{postId}`), or a new unpublished one. */
export type CreativeContent = { objectStoryId: string } | { story: CreativeStory };

export interface CreatedCreative {
  id: string;
  /** The page post that delivers the ad; null until the platform has made it. */
  effectiveObjectStoryId: string | null;
  thumbnailUrl: string | null;
}

/** A video in an ad account's library: `processing` until the platform has made it playable (minutes), then `ready` or `error`. */
export interface LibraryVideo {
  id: string;
  status: 'processing' | 'ready' | 'error';
  /** A frame the platform picked, once it has one: a video creative needs a cover. */
  pictureUrl: string | null;
  /** The platform's reason, when processing failed. */
  error: string | null;
}

/**
 * Standalone ad creatives and the ad account's media libraries they draw on (`social_network`'s Marketing API).
 * A platform whose creatives exist only inline in an ad (TikTok's) has no such member.
 */
export interface AdCreatives {
  /** Adds an image to the ad account's library: its hash. The same bytes give the same hash, so a repeat is harmless. */
  uploadImage(account: AdapterAccount, image: { bytes: Buffer; filename: string }): Promise<string>;
  /** Has the platform fetch a video into the ad account's library (not idempotent: each call makes a video), named `title`. */
  uploadVideo(account: AdapterAccount, video: { url: string; title: string }): Promise<string>;
  /** The library's video of this title made since `since`, if any: where a lost `uploadVideo` answer is looked for. */
  findVideo(account: AdapterAccount, title: string, since: Date): Promise<string | null>;
  video(account: AdapterAccount, videoId: string): Promise<LibraryVideo>;
  /** Creates the creative (not idempotent). */
  createCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<CreatedCreative>;
  /** Deletes a creative (a boost rolled back): false when the ad account has none with this id; a deleted one is deleted again. */
  deleteCreative(account: AdapterAccount, creativeId: string): Promise<boolean>;
  /** The platform's own validation of a creative, nothing created: a refusal is the `invalid_request` PlatformError it would be. */
  validateCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<void>;
  /**
   * The newest creative of this name that shows `content`: where a lost `createCreative` answer is looked for (the
   * platform keeps no creation time on a creative, and the name and content are all the request said).
   */
  findCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<CreatedCreative | null>;
}
