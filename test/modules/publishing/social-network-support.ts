import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { connectPages, newPerson, pendingConnection, person } from '../connect/social-network-support.js';
import { png, upload } from './support.js';

export interface ConnectedPage { accountId: string; pageId: string; userId: string }

/** A new person's page, connected to the owner's profile by the whole OAuth dance. */
export async function connectNewPage(app: TestApp, owner: TestOwner): Promise<ConnectedPage> {
  const created = await newPerson(app, { pages: 1, adAccounts: 0 });
  const pending = await pendingConnection(app, owner);
  const connected = await connectPages(app, owner, pending, [created.pageIds[0]!]);
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.data[0].id, pageId: created.pageIds[0]!, userId: created.userId };
}

/** The page token the account keeps (to take it away from it, as a password change would). */
export async function pageTokenOf(app: TestApp, accountId: string): Promise<string> {
  const row = await app.services.db('accounts').where({ id: accountId }).first();
  return JSON.parse(app.services.secrets.open(row.credentialsCiphertext)).accessToken;
}

export interface SandboxPagePost {
  id: string; message: string | null; link: string | null; photoUrls: string[]; videoId: string | null; deleted: boolean;
  comments: Array<{ id: string; message: string; fromPage: boolean }>;
}

/** Everything the page has at the platform, newest post first. */
export async function pageContents(app: TestApp, pageId: string): Promise<{
  posts: SandboxPagePost[]; videos: Array<{ id: string; status: string; postId: string }>; photosUploaded: number; unpublishedPhotos: number;
}> {
  const response = await fetch(`${app.services.sandboxUrl}/_sandbox/social_network/page-posts?pageId=${pageId}`);
  return response.json() as never;
}

export async function postFaults(app: TestApp, pageId: string, faults: Array<Record<string, unknown>>): Promise<void> {
  await person(app, 'post-faults', { pageId, faults });
}

export async function uploadPhoto(app: TestApp, owner: TestOwner, name = 'photo.png'): Promise<string> {
  const bytes = png(40, 40, () => [Math.floor(Math.random() * 256), Math.floor(Math.random() * 256), 90]);
  const uploaded = await upload(app, owner.key, { bytes, filename: name, type: 'image/png' }, { profileId: owner.profileId });
  expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
  return uploaded.body.id;
}

export async function uploadVideo(app: TestApp, owner: TestOwner): Promise<string> {
  const bytes = readFileSync(new URL('../../fixtures/media/tiny.mp4', import.meta.url));
  const uploaded = await upload(app, owner.key, { bytes, filename: 'clip.mp4', type: 'video/mp4' }, { profileId: owner.profileId });
  expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
  return uploaded.body.id;
}
