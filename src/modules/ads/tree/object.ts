import type { components } from '../../../../generated/api.js';
import { type FieldError, ValidationFailedError } from '../../../lib/errors.js';
import type { AdLevel, AdObjectChange } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { AdObjectNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { presentAdObject } from './present.js';

type AdObject = components['schemas']['AdObject'];
type Update = components['schemas']['AdObjectUpdate'];
export interface ObjectRef {
  adAccountId: string;
  objectId: string;
  level: AdLevel;
}

/** The members a change may carry at each level, beyond `name` and `status`. */
const CHANGEABLE: Record<AdLevel, ReadonlyArray<keyof AdObjectChange>> = {
  campaign: ['dailyBudget', 'lifetimeBudget', 'bidStrategy', 'stopTime'],
  adset: ['dailyBudget', 'lifetimeBudget', 'bidStrategy', 'bidAmount', 'targeting', 'endTime'],
  ad: ['creativeId', 'urlTags'],
};

export async function getAdObject(services: Services, principal: Principal, ref: ObjectRef): Promise<AdObject> {
  return withAdAccount(
    'adCampaigns',
    services,
    principal,
    ref.adAccountId,
    { handle: adRefusals('query') },
    async (campaigns, account, row) => {
      const object = await campaigns.get(account, ref.level, ref.objectId);
      if (!object) throw new AdObjectNotFoundError(ref.level);
      return presentAdObject(object, row);
    },
  );
}

/** Changes one object on the platform (members of another level are a 400 before anything is asked) and answers it as it is now. */
export async function updateAdObject(services: Services, principal: Principal, body: Update): Promise<AdObject> {
  const { adAccountId, objectId, level, ...change } = body;
  const misplaced: FieldError[] = Object.keys(change)
    .filter((member) => member !== 'name' && member !== 'status' && !CHANGEABLE[level].includes(member as keyof AdObjectChange))
    .map((member) => ({ path: `body/${member}`, code: 'level', message: `does not apply to a${level === 'ad' ? 'n' : ''} ${level}` }));
  if (misplaced.length > 0) throw new ValidationFailedError(misplaced);
  return withAdAccount('adCampaigns', services, principal, adAccountId, { handle: adRefusals() }, async (campaigns, account, row) => {
    const object = await campaigns.update(account, level, objectId, change);
    if (!object) throw new AdObjectNotFoundError(level);
    return presentAdObject(object, row);
  });
}

/** Deletes one object (and what is in it) on the platform; one deleted already is deleted again without asking. */
export async function deleteAdObject(services: Services, principal: Principal, ref: ObjectRef): Promise<void> {
  await withAdAccount('adCampaigns', services, principal, ref.adAccountId, { handle: adRefusals('query') }, async (campaigns, account) => {
    if (!(await campaigns.delete(account, ref.level, ref.objectId))) throw new AdObjectNotFoundError(ref.level);
  });
}
