import type { components } from '../../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../../lib/errors.js';
import type { CreativeCallToAction, CreativeContent, CreativeStory } from '../../../platforms/capabilities/ad-creatives.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { mediaFiles, type OwnedMedia } from '../../media/read.js';

export type AdCreativeCreate = components['schemas']['AdCreativeCreate'];
type StorySpec = components['schemas']['AdCreativeStorySpec'];

/** The media a spec names by `mediaId`, checked: the caller's (404 otherwise) and of the kind its place needs (400). */
export interface SpecMedia {
  image: OwnedMedia | null;
  video: OwnedMedia | null;
}

const IMAGE_KINDS: ReadonlyArray<OwnedMedia['kind']> = ['image', 'gif'];

/** Where in the body a spec's media is named, and whether it must be an image or a video. */
function mediaPlace(spec: StorySpec): { path: string; mediaId: string; video: boolean } | null {
  if (spec.linkData?.mediaId) return { path: 'body/objectStorySpec/linkData/mediaId', mediaId: spec.linkData.mediaId, video: false };
  if (spec.photoData?.mediaId) return { path: 'body/objectStorySpec/photoData/mediaId', mediaId: spec.photoData.mediaId, video: false };
  if (spec.videoData?.mediaId) return { path: 'body/objectStorySpec/videoData/mediaId', mediaId: spec.videoData.mediaId, video: true };
  return null;
}

/** A photo or video spec must name its media one way (the contract cannot say "one of" inside them and keep them open). */
function assertMediaGiven(spec: StorySpec): void {
  if (spec.photoData && !spec.photoData.mediaId && !spec.photoData.imageUrl)
    throw new ValidationFailedError([{ path: 'body/objectStorySpec/photoData', message: 'needs mediaId or imageUrl', code: 'required' }]);
  if (spec.videoData && !spec.videoData.mediaId && !spec.videoData.videoUrl)
    throw new ValidationFailedError([{ path: 'body/objectStorySpec/videoData', message: 'needs mediaId or videoUrl', code: 'required' }]);
}

export async function specMedia(services: Services, principal: Principal, spec: StorySpec | undefined): Promise<SpecMedia> {
  if (spec) assertMediaGiven(spec);
  const place = spec && mediaPlace(spec);
  if (!place) return { image: null, video: null };
  const file = (await mediaFiles(services.db, services.config.publicUrl, principal, [place.mediaId])).get(place.mediaId);
  if (!file) throw new NotFoundError('media');
  const fits = place.video ? file.kind === 'video' : IMAGE_KINDS.includes(file.kind);
  if (!fits) {
    throw new ValidationFailedError([
      {
        path: place.path,
        message: `must be ${place.video ? 'a video' : 'an image'}; this media is ${file.kind === 'image' ? 'an image' : `a ${file.kind}`}`,
        code: 'kind',
      },
    ]);
  }
  return place.video ? { image: null, video: file } : { image: file, video: null };
}

function callToAction(action: components['schemas']['AdCallToAction'] | undefined): CreativeCallToAction | undefined {
  return action && { type: action.type, ...(action.link ? { link: action.link } : {}) };
}

/**
 * What the creative shows, as the platform takes it. An image is named by `image` (its hash in the ad account's
 * library, or a URL), a video by the id of the library's video and its cover (`thumbnailUrl`: the spec's, else the
 * frame the platform picked).
 */
export function creativeContent(
  body: AdCreativeCreate,
  image: { hash: string } | { url: string } | null,
  video: { id: string; thumbnailUrl: string | null } | null,
): CreativeContent {
  if ('objectStoryId' in body && body.objectStoryId) return { objectStoryId: body.objectStoryId };
  const spec = body.objectStorySpec!;
  const story = ((): CreativeStory => {
    if (spec.linkData) {
      const { link, message, name, description } = spec.linkData;
      const shown = image ?? (spec.linkData.imageUrl ? { url: spec.linkData.imageUrl } : undefined);
      return {
        kind: 'link',
        pageId: spec.pageId,
        link,
        message,
        headline: name,
        description,
        image: shown,
        callToAction: callToAction(spec.linkData.callToAction),
      };
    }
    if (spec.photoData)
      return { kind: 'photo', pageId: spec.pageId, image: image ?? { url: spec.photoData.imageUrl! }, caption: spec.photoData.caption };
    const { title, message, thumbnailUrl } = spec.videoData!;
    return {
      kind: 'video',
      pageId: spec.pageId,
      videoId: video!.id,
      thumbnailUrl: thumbnailUrl ?? video!.thumbnailUrl ?? '',
      title,
      message,
      callToAction: callToAction(spec.videoData!.callToAction),
    };
  })();
  return { story };
}

/** The video a spec wants in the ad account's library: our media's URL or the public one given. */
export function videoSource(spec: StorySpec | undefined, media: SpecMedia): string | null {
  return media.video?.url ?? spec?.videoData?.videoUrl ?? null;
}
