import type { AdCopyTarget, AdLevel, AdObjectCopies, AdObjectOf, AdsAccount } from '../capabilities/ad-campaigns.js';
import type { GraphList } from '../meta/graph.js';

type Form = Record<string, string | number | undefined>;
/** A Marketing API call with the ad account's token, its refusals classified as the tree's (campaigns.ts). */
export type MarketingCall = <T>(
  account: AdsAccount,
  method: 'GET' | 'POST',
  path: string,
  request?: { query?: Form; form?: Form },
) => Promise<T>;

/** The member of the target's parent in a copy's form, by level. */
const PARENT: Record<AdLevel, string | null> = { campaign: null, adset: 'campaign_id', ad: 'adset_id' };
/** How far back a lost copy is looked for among the source's copies. */
const RECONCILE_PAGE = 100;

interface GraphCopy {
  id: string;
  name?: string;
  created_time?: string;
  campaign_id?: string;
  adset_id?: string;
}

/**
 * Copies over the Marketing API's own `POST /{object-id}/copies`: the object alone (`deep_copy` false: one copy is
 * at most three objects, so the caller copies children one by one), with `status_option` and, when the name asked
 * for is the source's with a suffix, `rename_options`; another name is given to the copy after (the platform can
 * only add a prefix or suffix). A lost copy is found through `GET /{object-id}/copies`: copies of that very source,
 * under the same parent, made since the attempt began.
 */
export class SocialNetworkAdCopies implements AdObjectCopies {
  constructor(private readonly call: MarketingCall) {}

  async copy<L extends AdLevel>(account: AdsAccount, source: AdObjectOf<L>, target: AdCopyTarget): Promise<string> {
    const suffix = target.name.startsWith(source.name) ? target.name.slice(source.name.length) : null;
    const parent = PARENT[source.level];
    const answer = await this.call<Record<string, string>>(account, 'POST', `${source.id}/copies`, {
      form: {
        deep_copy: 'false',
        status_option: target.status,
        rename_options: JSON.stringify(
          suffix ? { rename_strategy: 'ONLY_TOP_LEVEL_RENAME', rename_suffix: suffix } : { rename_strategy: 'NO_RENAME' },
        ),
        ...(parent && target.parentId ? { [parent]: target.parentId } : {}),
      },
    });
    const id = answer[`copied_${source.level}_id`]!;
    if (suffix === null) await this.rename(account, id, target.name);
    return id;
  }

  async findCopy<L extends AdLevel>(account: AdsAccount, source: AdObjectOf<L>, target: AdCopyTarget, since: Date): Promise<string | null> {
    const { data } = await this.call<GraphList<GraphCopy>>(account, 'GET', `${source.id}/copies`, {
      query: { fields: 'id,name,created_time,campaign_id,adset_id', limit: RECONCILE_PAGE },
    });
    // Graph times are in seconds: the second the attempt started counts.
    const from = Math.floor(since.getTime() / 1000) * 1000;
    const parent = PARENT[source.level];
    const found = data.find(
      (copy) =>
        Date.parse(copy.created_time ?? '') >= from &&
        (!parent || !target.parentId || copy[parent as 'campaign_id' | 'adset_id'] === target.parentId),
    );
    if (!found) return null;
    if (found.name !== target.name) await this.rename(account, found.id, target.name);
    return found.id;
  }

  private async rename(account: AdsAccount, id: string, name: string): Promise<void> {
    await this.call(account, 'POST', id, { form: { name } });
  }
}
