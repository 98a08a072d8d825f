import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { consent } from '../connect/oauth-support.js';
import { sandboxPost } from './posts-support.js';
import { upload } from './support.js';

export const fixture = (name: string) => readFileSync(new URL(`../../fixtures/media/${name}`, import.meta.url));

/** A 360×640, 30 fps, 2 s H.264 MP4: within the platform's picture size and frame rate rules. */
export const VIDEO = fixture('vertical.mp4');

/** The same video followed by a `free` box of `padding` bytes: a real MP4 of any size, for chunked uploads. */
export function paddedVideo(padding: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(padding + 8);
  header.write('free', 4, 'latin1');
  return Buffer.concat([VIDEO, header, Buffer.alloc(padding)]);
}

export interface Creator { accountId: string; openId: string; username: string }

/** A creator of their own at the sandbox, connected to the owner's profile by the Login Kit dance. */
export async function connectCreator(app: TestApp, owner: TestOwner, settings: Record<string, unknown> = {}): Promise<Creator> {
  const user = await sandboxPost(app, '/_sandbox/short_video/users', { displayName: 'Clip Maker' });
  if (Object.keys(settings).length > 0) await sandboxPost(app, '/_sandbox/short_video/creator', { openId: user.openId, ...settings });
  const started = await app.api.get(`/connect/short_video?profileId=${owner.profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`, { token: owner.key });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  const back = await consent(started.body.authorizationUrl, 'approve', { open_id: user.openId });
  const done = await app.api.get(`${back.pathname}${back.search}`);
  const accountId = new URL(done.headers.get('location')!).searchParams.get('accountIds')!;
  expect(accountId).to.match(/^acc_/);
  return { accountId, openId: user.openId, username: user.username };
}

export async function uploadMedia(app: TestApp, owner: TestOwner, bytes: Buffer, filename: string): Promise<string> {
  const uploaded = await upload(app, owner.key, { bytes, filename }, { profileId: owner.profileId });
  expect(uploaded.status, uploaded.text).to.equal(201);
  return uploaded.body.id;
}

export interface PlatformPost { id: string; kind: string; title: string; description: string; privacyLevel: string; publishId: string | null; sha256: string | null; size: number; contentType: string | null }

/** Everything the platform holds for the creator: posts (private ones too) and every init it received. */
export async function onPlatform(app: TestApp, openId: string): Promise<{ posts: PlatformPost[]; inits: Array<{ publishId: string; status: string; failReason: string | null; postInfo: any; chunks: number[] }> }> {
  const response = await fetch(`${app.services.sandboxUrl}/_sandbox/short_video/posts?openId=${encodeURIComponent(openId)}`);
  return response.json() as Promise<any>;
}
