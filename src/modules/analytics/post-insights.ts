import type { components } from '../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { type AnalyticsMetric, isGone, type MetricSource } from '../../platforms/capabilities/insights.js';
import { PostNotFound } from '../../platforms/capabilities/publishing.js';
import { PlatformError } from '../../platforms/errors.js';
import type { Services } from '../../services.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import type { Principal } from '../auth/principal.js';
import { targetOn } from '../publishing/api.js';
import { withInsights } from './access.js';
import { assertKnown } from './account-insights.js';
import { readCached, TTL_SECONDS, writeCached } from './cache.js';
import { deadMetrics, rememberDeadMetric } from './dead-metrics.js';
import type { FigureSource, Unsupported } from './figures.js';
import { unlessThrottled } from './throttle.js';

type PostInsights = components['schemas']['PostInsights'];

/** `GET /accounts/{id}/post-insights`: a post's lifetime metrics, by our post id or the platform's. */
export function postInsights(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { postId?: string; platformPostId?: string; metrics?: AnalyticsMetric[] },
): Promise<PostInsights> {
  if (Boolean(query.postId) === Boolean(query.platformPostId))
    throw new ValidationFailedError([{ path: 'query/postId', message: 'give exactly one of postId and platformPostId', code: 'one_of' }]);
  return withInsights(services, principal, accountId, 'post', async (source, row) => {
    const { insights } = source;
    if (!insights.post) throw new CapabilityUnsupportedError(`${row.platform} posts have no figures: the platform gives none for them.`);
    const target = await targetOn(services.db, row.id, query.postId ? { postId: query.postId } : { platformPostId: query.platformPostId! });
    if (query.postId && (!target || target.status !== 'published' || !target.platformPostId)) throw new NotFoundError('post');
    const platformPostId = target?.platformPostId ?? query.platformPostId!;
    const map = insights.postMetrics;
    const metrics = query.metrics ?? (Object.keys(map) as AnalyticsMetric[]);
    assertKnown(row.platform, map, metrics, ' for posts');
    const { values, unsupported, updatedAt, publishedAt } = await lifetimeFigures(source, platformPostId, metrics);
    return {
      accountId: row.id,
      platform: row.platform as PostInsights['platform'],
      postId: target?.postId ?? null,
      platformPostId,
      publishedAt: (target?.publishedAt ?? publishedAt)?.toISOString() ?? null,
      metrics: metrics.filter((metric) => values.has(metric)).map((metric) => ({ metric, value: values.get(metric)! })),
      unsupported,
      updatedAt: updatedAt.toISOString(),
    };
  });
}

/** Lifetime values from the cache or the platform; a metric the platform refuses is remembered and named unsupported. */
async function lifetimeFigures(source: FigureSource, platformPostId: string, metrics: AnalyticsMetric[]) {
  const { insights } = source;
  const dead = await deadMetrics(source.db, source.platform, insights.apiVersion);
  const unsupported: Unsupported[] = [];
  const sources = new Map<AnalyticsMetric, MetricSource>();
  for (const metric of metrics) {
    const entry = insights.postMetrics[metric]!;
    if (isGone(entry)) unsupported.push({ metric, reason: entry.unsupported });
    else if (entry.platformMetrics.some((name) => dead.has(name)))
      unsupported.push({
        metric,
        reason: `${source.platform} refused ${entry.platformMetrics.join(', ')} as an invalid metric at API ${insights.apiVersion}.`,
      });
    else sources.set(metric, entry);
  }
  const names = [...new Set([...sources.values()].flatMap((entry) => entry.platformMetrics))];
  const keyOf = (name: string) => `post:${platformPostId}:${name}`;
  const cached = await readCached<number | null>(source.db, source.accountId, names.map(keyOf));
  const missing = names.filter((name) => !cached.has(keyOf(name)));
  const read = new Map<string, number | null>();
  const refused = new Set<string>();
  let publishedAt: Date | null = null;
  const readSome = async (some: string[]): Promise<void> => {
    try {
      const figures = await insights.post!(source.account, platformPostId, some);
      publishedAt = figures.publishedAt ?? publishedAt;
      for (const name of some) read.set(name, figures.values.get(name) ?? null);
    } catch (error) {
      if (error instanceof PostNotFound) throw new NotFoundError('post');
      if (!(error instanceof PlatformError) || !insights.refusesMetric(error)) throw error;
      if (some.length === 1) {
        refused.add(some[0]!);
        await rememberDeadMetric(source.db, source.platform, insights.apiVersion, some[0]!, error.message);
        return;
      }
      for (const name of some) await readSome([name]);
    }
  };
  if (missing.length > 0) await unlessThrottled(source.db, source.accountId, () => readSome(missing));
  const readAt = new Date();
  await writeCached(
    source.db,
    source.accountId,
    [...read].map(([name, figures]) => ({ key: keyOf(name), figures, ttlSeconds: TTL_SECONDS.lifetime })),
    readAt,
  );
  const valueOf = (name: string) => (read.has(name) ? read.get(name)! : (cached.get(keyOf(name))?.figures ?? null));
  const values = new Map<AnalyticsMetric, number | null>();
  for (const [metric, entry] of sources) {
    if (entry.platformMetrics.some((name) => refused.has(name))) {
      unsupported.push({
        metric,
        reason: `${source.platform} refused ${entry.platformMetrics.join(', ')} as an invalid metric at API ${insights.apiVersion}.`,
      });
      continue;
    }
    const parts = entry.platformMetrics.map(valueOf);
    values.set(metric, parts.every((part) => typeof part === 'number') ? parts.reduce<number>((sum, part) => sum + part!, 0) : null);
  }
  const times = [...cached.values()].map((c) => c.updatedAt);
  const updatedAt = missing.length === 0 && times.length > 0 ? new Date(Math.min(...times.map((t) => t.getTime()))) : readAt;
  return { values, unsupported, updatedAt, publishedAt: publishedAt as Date | null };
}
