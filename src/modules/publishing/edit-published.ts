import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import type { EditableMember } from '../../platforms/capabilities/publishing.js';
import type { Services } from '../../services.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import type { Principal } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { contentOf } from './attempt.js';
import type { Created } from './create.js';
import { PostValidationError } from './errors.js';
import { lockTargets } from './lifecycle.js';
import { targetsOf } from './read.js';
import type { PostRow, TargetRow } from './rows.js';
import { lookUp, type PostContentInput, requestProblems, ruleViolations } from './validate.js';

type PostUpdate = components['schemas']['PostUpdate'];
type Violation = components['schemas']['PostValidationError'];
type Platform = components['schemas']['Platform'];

/** Whether each member of an edit changes the post as it is: given, and not the value it has already. */
const CHANGES: Record<keyof PostUpdate, (post: PostRow, targets: TargetRow[], value: unknown) => boolean> = {
  text: (post, _targets, text) => text !== post.text,
  mediaIds: (post, _targets, ids) => !isDeepStrictEqual(ids, post.mediaIds),
  accountIds: (_post, targets, ids) =>
    !isDeepStrictEqual(
      ids,
      targets.map((target) => target.accountId),
    ),
  platformOptions: (post, _targets, options) => !isDeepStrictEqual(options, post.platformOptions),
  timezone: (post, _targets, timezone) => timezone !== post.timezone,
  // A published post's time is past: any of these would publish it again.
  scheduledAt: () => true,
  useQueue: () => true,
  publishNow: () => true,
  draft: () => true,
};

/** The platform's word for `member`, where it is not the member's own. */
const MEMBER_NAMES: Partial<Record<keyof PostUpdate, string>> = {
  mediaIds: 'media',
  accountIds: 'accounts',
  platformOptions: 'options',
  scheduledAt: 'time',
  useQueue: 'time',
  publishNow: 'time',
  draft: 'time',
  timezone: 'time zone',
};

/**
 * `PATCH /posts/{id}` of a published (or partly published) post, locked by the caller's transaction: only members
 * that every published target's platform lets apps change (`Publisher.editable`: the text, where it may) are taken;
 * any other change is 422 `platform_cannot_edit`, naming the member and the platform, and nothing is sent. A member
 * given with the value it has is no change (so a retry of an edit that went through sends nothing). The new content
 * is checked by every target's platform as a new post is. Then each published target is changed on its platform, in
 * position order, each as a platform write of its own (`ledgerKey`, from the request's Idempotency-Key): recorded
 * before the call, so a retry of the request with the key never sends a target twice. The post's row takes the change
 * only once every platform accepted it; a refusal answers the platform's problem with the row as it was (the targets
 * edited before it keep the new text on their platform, and the same request again completes the edit). Emits no
 * event: the event list has none for a post changed after publishing. A failed target publishes the new text if it is
 * retried.
 */
export async function editPublished(
  services: Services,
  trx: Knex.Transaction,
  principal: Principal,
  post: PostRow,
  change: PostUpdate,
  ledgerKey: string,
): Promise<Created> {
  await lockTargets(trx, post.id);
  const all = await targetsOf(trx, [post.id]);
  const targets = all.filter((target) => target.status !== 'deleted');
  const published = targets.filter((target) => target.status === 'published');
  const changed = (Object.keys(change) as Array<keyof PostUpdate>).filter((member) => CHANGES[member](post, targets, change[member]));
  const refused = published.flatMap((target) =>
    changed.flatMap((member) => (editableOn(services, target.platform, member) ? [] : [cannotEdit(services, target, member)])),
  );
  if (refused.length > 0) throw new PostValidationError(refused);
  if (changed.length === 0) return { post, targets: all };
  const text = changed.includes('text') ? (change.text ?? null) : post.text;
  const input = { text: text ?? undefined, mediaIds: post.mediaIds, accountIds: targets.map((target) => target.accountId) };
  const invalid = requestProblems(input, 0);
  if (invalid.length > 0) throw new ValidationFailedError(invalid);
  const lookups = await lookUp(services, principal, [input]);
  const platformOptions = post.platformOptions as PostContentInput['platformOptions'];
  const { errors } = ruleViolations(services.platforms, { ...input, platformOptions }, lookups);
  if (errors.length > 0) throw new PostValidationError(errors);
  const edited = { text, mediaIds: post.mediaIds, platformOptions: post.platformOptions };
  const members = changed as EditableMember[];
  for (const target of published) {
    await withConnectedAccount(
      services,
      principal,
      { accountId: idOf('acc', target.accountId) },
      'publisher',
      (adapter, account, row) =>
        writeOnce(services.db, {
          ownerId: row.ownerId,
          accountId: row.id,
          key: ledgerKey,
          kind: 'post.edit',
          // The text it replaces too: the key asked again once another edit has changed the post is another write (422).
          request: { postId: post.id, platformPostId: target.platformPostId, members, from: post.text, text },
          send: async () => {
            const content = contentOf(edited, target.platform, lookups.media);
            await adapter.publisher.edit(account, target.platformPostId!, target.progress, { changed: members, content });
            return { text };
          },
          // An edit sets the members to their new values: sent again after a lost answer, it changes nothing the first did.
          reconcile: async () => null,
          // The post's row takes the new text once every target's platform has it (below).
          store: async () => {},
        }),
      { part: 'edit', unsupported: (platform) => `${platform} does not let apps change a published post.` },
    );
  }
  const [row] = (await trx('posts').where({ id: post.id }).update({ text, updatedAt: trx.fn.now() }).returning('*')) as PostRow[];
  return { post: row!, targets: all };
}

/** Whether the platform lets apps change `member` of a published post. */
function editableOn(services: Services, platform: string, member: keyof PostUpdate): boolean {
  const publisher = services.platforms.get(platform)?.publisher;
  return publisher?.edit !== undefined && (publisher.editable ?? []).includes(member as EditableMember);
}

function cannotEdit(services: Services, target: TargetRow, member: keyof PostUpdate): Violation {
  const publisher = services.platforms.get(target.platform)?.publisher;
  const editable = publisher?.edit ? (publisher.editable ?? []) : [];
  const what = MEMBER_NAMES[member] ?? member;
  return {
    path: `body/${member}`,
    code: 'platform_cannot_edit',
    message:
      editable.length === 0
        ? `${target.platform} does not let apps change a post once it is published; change it in the platform's app.`
        : `${target.platform} lets apps change only the ${editable.join(' and ')} of a published post, not its ${what}.`,
    accountId: target.accountId,
    platform: target.platform as Platform,
    limit: null,
  };
}
