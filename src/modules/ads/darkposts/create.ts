import type { components } from '../../../../generated/api.js';
import { ValidationFailedError } from '../../../lib/errors.js';
import { idOf } from '../../../lib/ids.js';
import type { Services } from '../../../services.js';
import { AccountNotConnectedError, CapabilityUnsupportedError } from '../../accounts/errors.js';
import { findAccount } from '../../accounts/read.js';
import type { Principal } from '../../auth/principal.js';
import { mediaFiles } from '../../media/read.js';
import { type CreateOutcome, createAdCreative } from '../creatives/create.js';
import { type AdDarkPost, recordDarkPost } from './records.js';

type Schemas = components['schemas'];
type AdDarkPostCreate = Schemas['AdDarkPostCreate'];
type StorySpec = Schemas['AdCreativeStorySpec'];

/** How much of the text names a dark post that was given no name. */
const NAME_FROM_TEXT = 60;

/** The page the post is made on: a connected `social_network` account of the caller's (404, 403, 422, 409). */
async function pageOf(services: Services, principal: Principal, accountId: string): Promise<string> {
  const account = await findAccount(services.db, principal, idOf('acc', accountId));
  if (account.platform !== 'social_network')
    throw new CapabilityUnsupportedError(
      `${account.platform} accounts have no dark posts: they are unpublished posts of a social_network page.`,
    );
  if (account.status !== 'connected' || !account.platformAccountId)
    throw new AccountNotConnectedError(`The account is ${account.status.replace('_', ' ')}; connect it again.`);
  return account.platformAccountId;
}

/**
 * The unpublished post as a creative's `object_story_spec`: a video post for our video, a link post when there
 * is a link (the call to action's or the post's), else a photo post. The call to action opens its own link, else
 * the post's.
 */
async function storySpec(services: Services, principal: Principal, body: AdDarkPostCreate, pageId: string): Promise<StorySpec> {
  const mediaId = body.mediaIds?.[0];
  const imageUrl = body.mediaUrls?.[0];
  const media = mediaId ? (await mediaFiles(services.db, services.config.publicUrl, principal, [mediaId])).get(mediaId) : undefined;
  const link = body.callToAction?.link ?? body.link;
  const callToAction = body.callToAction && { ...body.callToAction, ...(link ? { link } : {}) };
  const image = mediaId ? { mediaId } : imageUrl ? { imageUrl } : {};
  if (media?.kind === 'video') return { pageId, videoData: { mediaId: mediaId!, message: body.text, title: body.linkName, callToAction } };
  if (link)
    return {
      pageId,
      linkData: { link, message: body.text, name: body.linkName, description: body.linkDescription, ...image, callToAction },
    };
  if (mediaId || imageUrl) return { pageId, photoData: { ...image, caption: body.text } };
  throw new ValidationFailedError([
    { path: 'body', message: 'needs link or media: a dark post is a link, photo or video post', code: 'required' },
  ]);
}

export type DarkPostOutcome = { kind: 'created'; darkPost: AdDarkPost } | Extract<CreateOutcome, { kind: 'task' }>;

/**
 * `POST /ads/darkpost`: the page account checked, then the post made as a creative of the ad account through the
 * creatives part (our image into the ad account's library, our video uploaded and waited for in a task; the
 * creative made once per write key), then recorded for `GET /ads/darkposts` (once, whatever the retries).
 */
export async function createDarkPost(
  services: Services,
  principal: Principal,
  body: AdDarkPostCreate,
  writeKey: string,
): Promise<DarkPostOutcome> {
  const pageId = await pageOf(services, principal, body.accountId);
  const objectStorySpec = await storySpec(services, principal, body, pageId);
  const name = body.name ?? (body.text?.slice(0, NAME_FROM_TEXT) || `Dark post ${pageId}`);
  const outcome = await createAdCreative(
    services,
    principal,
    { adAccountId: body.adAccountId, name, objectStorySpec, validateOnly: false },
    writeKey,
  );
  if (outcome.kind === 'task') return outcome;
  if (outcome.kind !== 'created') throw new Error('a dark post is never a dry run');
  const { creative } = outcome;
  const darkPost = await recordDarkPost(services.db, principal, {
    adAccountId: creative.adAccountId,
    creativeId: creative.id,
    accountId: body.accountId,
    name,
    platformPostId: creative.effectiveObjectStoryId,
  });
  return { kind: 'created', darkPost };
}
