import { AdRefused } from '../capabilities/ad-campaigns.js';
import type {
  AdCreatives,
  CreatedCreative,
  CreativeCallToAction,
  CreativeContent,
  CreativeStory,
  LibraryVideo,
} from '../capabilities/ad-creatives.js';
import type { GraphList } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import { classifyMarketingError, UNKNOWN_OBJECT } from './campaigns.js';
import type { SocialNetworkClient } from './client.js';
import { madeSince } from '../made-since.js';

interface GraphCreative {
  id: string;
  name?: string;
  object_story_id?: string;
  object_story_spec?: Record<string, unknown>;
  effective_object_story_id?: string;
  thumbnail_url?: string;
}
interface GraphVideo {
  id: string;
  title?: string;
  created_time?: string;
  picture?: string;
  status?: { video_status?: string; processing_phase?: { errors?: Array<{ message?: string }> } };
}

const CREATIVE_FIELDS = 'id,name,object_story_id,object_story_spec,effective_object_story_id,thumbnail_url';
/** How far back a lost answer's video or creative is looked for: the newest ones, where it would be. */
const LOOKUP_LIMIT = 50;

function callToAction(action: CreativeCallToAction | undefined, link?: string): Record<string, unknown> | undefined {
  if (!action) return undefined;
  const target = action.link ?? link;
  return { type: action.type, ...(target ? { value: { link: target } } : {}) };
}

/** The Marketing API's `object_story_spec`: one of `link_data`, `photo_data`, `video_data`, without empty members. */
export function storySpec(story: CreativeStory): Record<string, unknown> {
  const defined = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  switch (story.kind) {
    case 'link':
      return {
        page_id: story.pageId,
        link_data: defined({
          link: story.link,
          message: story.message,
          name: story.headline,
          description: story.description,
          image_hash: story.image && 'hash' in story.image ? story.image.hash : undefined,
          picture: story.image && 'url' in story.image ? story.image.url : undefined,
          call_to_action: callToAction(story.callToAction, story.link),
        }),
      };
    case 'photo':
      return {
        page_id: story.pageId,
        photo_data: defined({
          image_hash: 'hash' in story.image ? story.image.hash : undefined,
          url: 'url' in story.image ? story.image.url : undefined,
          caption: story.caption,
        }),
      };
    case 'video':
      return {
        page_id: story.pageId,
        video_data: defined({
          video_id: story.videoId,
          image_url: story.thumbnailUrl,
          title: story.title,
          message: story.message,
          call_to_action: callToAction(story.callToAction),
        }),
      };
  }
}

function creativeParams(name: string, content: CreativeContent): Record<string, string> {
  return 'objectStoryId' in content
    ? { name, object_story_id: content.objectStoryId }
    : { name, object_story_spec: JSON.stringify(storySpec(content.story)) };
}

function created(raw: GraphCreative): CreatedCreative {
  return { id: raw.id, effectiveObjectStoryId: raw.effective_object_story_id ?? null, thumbnailUrl: raw.thumbnail_url ?? null };
}

/** The Marketing API's ad creatives (`/act_{id}/adcreatives`) and the ad account's image and video libraries. */
export class SocialNetworkAdCreatives implements AdCreatives {
  constructor(private readonly client: SocialNetworkClient) {}

  async uploadImage(account: AdapterAccount, image: { bytes: Buffer; filename: string }): Promise<string> {
    const answer = await this.client.call<{ images: Record<string, { hash: string }> }>('POST', `${account.platformAccountId}/adimages`, {
      token: account.credentials.accessToken,
      form: { bytes: image.bytes.toString('base64'), filename: image.filename },
    });
    const [uploaded] = Object.values(answer.images ?? {});
    if (!uploaded) throw new Error('the platform answered the image upload without a hash');
    return uploaded.hash;
  }

  async uploadVideo(account: AdapterAccount, video: { url: string; title: string }): Promise<string> {
    const answer = await this.client.call<{ id: string }>('POST', `${account.platformAccountId}/advideos`, {
      token: account.credentials.accessToken,
      form: { file_url: video.url, title: video.title, name: video.title },
    });
    return answer.id;
  }

  async findVideo(account: AdapterAccount, title: string, since: Date): Promise<string | null> {
    const list = await this.client.call<GraphList<GraphVideo>>('GET', `${account.platformAccountId}/advideos`, {
      token: account.credentials.accessToken,
      query: { fields: 'id,title,created_time', limit: LOOKUP_LIMIT },
    });
    const found = list.data.find((video) => video.title === title && madeSince(video.created_time, since));
    return found?.id ?? null;
  }

  async video(account: AdapterAccount, videoId: string): Promise<LibraryVideo> {
    const video = await this.client.call<GraphVideo>('GET', videoId, {
      token: account.credentials.accessToken,
      query: { fields: 'id,status,picture' },
    });
    const status = video.status?.video_status;
    return {
      id: video.id,
      status: status === 'ready' ? 'ready' : status === 'error' ? 'error' : 'processing',
      pictureUrl: video.picture ?? null,
      error: status === 'error' ? (video.status?.processing_phase?.errors?.[0]?.message ?? 'The video could not be processed.') : null,
    };
  }

  async createCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<CreatedCreative> {
    const { id } = await this.client.call<{ id: string }>(
      'POST',
      `${account.platformAccountId}/adcreatives`,
      {
        token: account.credentials.accessToken,
        form: creativeParams(name, content),
      },
      classifyMarketingError,
    );
    return this.read(account, id);
  }

  async deleteCreative(account: AdapterAccount, creativeId: string): Promise<boolean> {
    let owner: { account_id?: string };
    try {
      owner = await this.client.call(
        'GET',
        creativeId,
        { token: account.credentials.accessToken, query: { fields: 'id,account_id' } },
        classifyMarketingError,
      );
    } catch (error) {
      if (error instanceof AdRefused && error.platformSubcode === UNKNOWN_OBJECT) return false;
      throw error;
    }
    if (`act_${owner.account_id}` !== account.platformAccountId) return false;
    await this.client.call('DELETE', creativeId, { token: account.credentials.accessToken }, classifyMarketingError);
    return true;
  }

  async validateCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<void> {
    await this.client.call(
      'POST',
      `${account.platformAccountId}/adcreatives`,
      {
        token: account.credentials.accessToken,
        form: { ...creativeParams(name, content), execution_options: JSON.stringify(['validate_only']) },
      },
      classifyMarketingError,
    );
  }

  async findCreative(account: AdapterAccount, name: string, content: CreativeContent): Promise<CreatedCreative | null> {
    const list = await this.client.call<GraphList<GraphCreative>>('GET', `${account.platformAccountId}/adcreatives`, {
      token: account.credentials.accessToken,
      query: { fields: CREATIVE_FIELDS, limit: LOOKUP_LIMIT },
    });
    const wanted = creativeParams(name, content);
    const found = list.data.find(
      (creative) =>
        creative.name === name &&
        (wanted.object_story_id
          ? creative.object_story_id === wanted.object_story_id
          : JSON.stringify(creative.object_story_spec) === wanted.object_story_spec),
    );
    return found ? created(found) : null;
  }

  private async read(account: AdapterAccount, id: string): Promise<CreatedCreative> {
    return created(
      await this.client.call<GraphCreative>('GET', id, { token: account.credentials.accessToken, query: { fields: CREATIVE_FIELDS } }),
    );
  }
}
