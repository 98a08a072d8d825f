import { sha256Hex } from '../../../lib/crypto.js';
import { AdAccountDisabled, AdRefused } from '../../../platforms/capabilities/ad-campaigns.js';
import type { AdCreatives, CreatedCreative, CreativeContent } from '../../../platforms/capabilities/ad-creatives.js';
import type { PlatformError } from '../../../platforms/errors.js';
import type { AdapterAccount } from '../../../platforms/types.js';
import type { Services } from '../../../services.js';
import { withAdAccount } from '../access.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { mediaBytes } from '../../media/read.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { type AdCreativeCreate, creativeContent, specMedia, videoSource } from './content.js';
import { AdAccountDisabledError, AdPlatformRejectedError } from '../errors.js';
import { type AdCreative, type AdCreativeTask, acceptTask, presentTask, type TaskRequest } from './tasks.js';

export type CreateOutcome =
  | { kind: 'created'; creative: AdCreative }
  | { kind: 'task'; task: AdCreativeTask }
  | { kind: 'validated'; checkedBy: 'platform' | 'service' };

/** A platform that keeps no standalone creative (TikTok's ads carry theirs inline): what the 422 says. */
const unsupported = (platform: string) =>
  `${platform} has no standalone ad creative: its ads carry their creative inline, given when the ad is created (POST /ads/ads).`;

/** A refusal the service or the platform gives without a code of the platform's. */
const NO_PLATFORM_CODE = { code: null, subcode: null };

/**
 * The platform's refusal of what was asked (a post it will not promote, media it refused) is the caller's 422; an ad
 * account that can run no ads is 422 `ad_account_disabled`.
 */
export function rejected(error: PlatformError): void {
  if (error instanceof AdAccountDisabled) throw new AdAccountDisabledError(error.message);
  if (error.kind !== 'invalid_request') return;
  const platform = error instanceof AdRefused ? { code: error.platformCode, subcode: error.platformSubcode } : NO_PLATFORM_CODE;
  throw new AdPlatformRejectedError(`The platform refused the creative: ${error.message}`, null, platform);
}

/** A creative as the contract shows it: the platform's ids and what the caller asked for. */
function presentCreative(
  row: AdAccountRow,
  name: string,
  asked: TaskRequest['asked'],
  created: CreatedCreative & { createdAt: string },
): AdCreative {
  return {
    id: created.id,
    adAccountId: row.id,
    platform: row.platform as AdCreative['platform'],
    name,
    objectStoryId: asked.objectStoryId,
    objectStorySpec: asked.objectStorySpec,
    effectiveObjectStoryId: created.effectiveObjectStoryId,
    thumbnailUrl: created.thumbnailUrl,
    createdAt: created.createdAt,
  };
}

/**
 * Creates the creative once under `writeKey` (a lost answer is looked for on the platform by its name and content);
 * stores nothing but the ledger's record, the creative living on the platform.
 */
export async function createOnce(
  services: Services,
  creatives: AdCreatives,
  account: AdapterAccount,
  row: AdAccountRow,
  writeKey: string,
  request: TaskRequest,
): Promise<AdCreative> {
  const { result } = await writeOnce(services.db, {
    ownerId: row.ownerId,
    accountId: row.id,
    key: `${writeKey}:creative`,
    kind: 'ad.creative',
    request: { name: request.name, content: request.content },
    send: async () => ({
      ...(await creatives.createCreative(account, request.name, request.content)),
      createdAt: new Date().toISOString(),
    }),
    reconcile: async () => {
      const found = await creatives.findCreative(account, request.name, request.content);
      return found && { ...found, createdAt: new Date().toISOString() };
    },
    store: async () => {},
  });
  return presentCreative(row, request.name, request.asked, result);
}

/**
 * The ad account library's video of this write: uploaded once under `writeKey` (the platform fetches it; a lost
 * answer is looked for by the name it was given, which the key makes its own).
 */
async function libraryVideo(
  services: Services,
  creatives: AdCreatives,
  account: AdapterAccount,
  row: AdAccountRow,
  writeKey: string,
  url: string,
): Promise<string> {
  const title = `socialgate ${sha256Hex(`${row.id}\n${writeKey}`).slice(0, 24)}`;
  const { result } = await writeOnce(services.db, {
    ownerId: row.ownerId,
    accountId: row.id,
    key: `${writeKey}:video`,
    kind: 'ad.video',
    request: { url, title },
    send: () => creatives.uploadVideo(account, { url, title }),
    reconcile: (since) => creatives.findVideo(account, title, since),
    store: async () => {},
  });
  return result;
}

/**
 * `POST /ads/adcreatives`: the media named checked, an image added to the ad account's library (its hash), a video
 * uploaded to it once; a video still processing makes the answer a task the worker finishes (./worker.ts), else the
 * creative is created now. A dry run checks everything it can without uploading or creating.
 */
export async function createAdCreative(
  services: Services,
  principal: Principal,
  body: AdCreativeCreate,
  writeKey: string,
): Promise<CreateOutcome> {
  return withAdAccount(
    'adCreatives',
    services,
    principal,
    body.adAccountId,
    { unsupported, scopes: ['ads_management'], handle: rejected },
    async (creatives, account, row) => {
      const spec = body.objectStorySpec;
      const media = await specMedia(services, principal, spec);
      const asked = { objectStoryId: body.objectStoryId ?? null, objectStorySpec: spec ?? null };
      const videoUrl = videoSource(spec, media);
      if (body.validateOnly) {
        if (videoUrl) return { kind: 'validated', checkedBy: 'service' };
        await creatives.validateCreative(account, body.name, creativeContent(body, media.image && { url: media.image.url }, null));
        return { kind: 'validated', checkedBy: 'platform' };
      }
      let content: CreativeContent;
      if (videoUrl) {
        const videoId = await libraryVideo(services, creatives, account, row, writeKey, videoUrl);
        const video = await creatives.video(account, videoId);
        if (video.status === 'error')
          throw new AdPlatformRejectedError(`The platform could not process the video: ${video.error}`, null, NO_PLATFORM_CODE);
        content = creativeContent(body, null, { id: videoId, thumbnailUrl: video.pictureUrl });
        if (video.status === 'processing') {
          const task = await acceptTask(services, {
            ownerId: row.ownerId,
            adAccountId: row.id,
            writeKey,
            videoId,
            request: { name: body.name, content, asked },
          });
          return { kind: 'task', task: presentTask(task) };
        }
      } else {
        const image = media.image && {
          hash: await creatives.uploadImage(account, {
            bytes: await mediaBytes(services.db, services.config, media.image.id),
            filename: `${media.image.id}.${media.image.mimeType.split('/')[1] ?? 'jpg'}`,
          }),
        };
        content = creativeContent(body, image, null);
      }
      const creative = await createOnce(services, creatives, account, row, writeKey, { name: body.name, content, asked });
      return { kind: 'created', creative };
    },
  );
}
