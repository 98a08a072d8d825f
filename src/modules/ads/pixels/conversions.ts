import type { components } from '../../../../generated/api.js';
import type { FieldError } from '../../../lib/errors.js';
import { type Page, platformPage } from '../../../lib/pagination.js';
import type { AdPixels, CustomConversion, RuleField } from '../../../platforms/capabilities/ad-pixels.js';
import type { Services } from '../../../services.js';
import type { AdAccountRow } from '../../accounts/models.js';
import type { Principal } from '../../auth/principal.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { AdPlatformRejectedError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { pixelRefusals } from './access.js';
import { AdRequestRefusedError } from './errors.js';

type Schemas = components['schemas'];
type Presented = Schemas['AdCustomConversion'];
type Create = Schemas['AdCustomConversionCreate'];

const NUMERIC = new Set(['greater_than', 'less_than']);

function present(row: AdAccountRow, conversion: CustomConversion): Presented {
  return { ...conversion, adAccountId: row.id, platform: row.platform as Presented['platform'], currency: row.currency };
}

/** What the platform's rule syntax and kinds refuse of `body`, each at its path (the contract has checked the shape). */
function ruleErrors(pixels: AdPixels, platform: string, body: Create): FieldError[] {
  const errors: FieldError[] = [];
  const at = (path: string, message: string) => errors.push({ path: `body/${path}`, message, code: 'ad_platform_rejected' });
  const rules = pixels.customConversionRules;
  const { conditions, combinator } = body.rule;
  if (!rules.combinators.includes(combinator)) at('rule/combinator', `${platform} custom conversion rules must all hold (and)`);
  if (conditions.length > rules.maxConditions) at('rule/conditions', `${platform} takes at most ${rules.maxConditions} conditions`);
  if (rules.eventTypes && !rules.eventTypes.includes(body.customEventType))
    at('customEventType', `${platform} custom conversions count ${rules.eventTypes.join(', ')} only`);
  conditions.forEach((condition, index) => {
    const here = `rule/conditions/${index}`;
    const key = condition.field.startsWith('custom_data.') ? condition.field.slice('custom_data.'.length) : null;
    const kind = (key === null ? condition.field : 'custom_data') as RuleField;
    if (!rules.fields.includes(kind)) at(`${here}/field`, `${platform} custom conversion rules compare ${rules.fields.join(', ')} only`);
    else if (key !== null && rules.customDataKeys && !rules.customDataKeys.includes(key))
      at(`${here}/field`, `${platform} custom conversion rules compare custom_data.${rules.customDataKeys.join(', custom_data.')} only`);
    const keyOperators = key === null ? undefined : rules.keyOperators[key];
    if (!rules.operators.includes(condition.operator)) at(`${here}/operator`, `${platform} has no ${condition.operator} in its rules`);
    else if (keyOperators && !keyOperators.includes(condition.operator))
      at(`${here}/operator`, `${platform} compares ${condition.field} with ${keyOperators.join(', ')} only`);
    if (NUMERIC.has(condition.operator)) {
      if (kind !== 'custom_data') at(`${here}/operator`, `${condition.operator} compares custom_data numbers only`);
      if (!Number.isFinite(Number(condition.value))) at(`${here}/value`, `${condition.operator} needs a number`);
    }
  });
  if (body.defaultConversionValue !== undefined && !rules.defaultValue)
    at('defaultConversionValue', `${platform} custom conversions carry no default value`);
  return errors;
}

/** `GET /ads/custom-conversions`: live from the platform, narrowed to a pixel when asked. */
export function listCustomConversions(
  services: Services,
  principal: Principal,
  query: { adAccountId: string; pixelId?: string; limit?: number; cursor?: string },
): Promise<Page<Presented>> {
  return withAdAccount(
    'adPixels',
    services,
    principal,
    query.adAccountId,
    { handle: pixelRefusals('query') },
    async (pixels, account, row) => {
      const page = await platformPage(query, (range) => pixels.customConversions(account, query.pixelId, range));
      return { ...page, data: page.data.map((conversion) => present(row, conversion)) };
    },
  );
}

/** `GET /ads/custom-conversions/{id}`. */
export function getCustomConversion(services: Services, principal: Principal, adAccountId: string, id: string): Promise<Presented> {
  return withAdAccount('adPixels', services, principal, adAccountId, { handle: pixelRefusals('query') }, async (pixels, account, row) =>
    present(row, await pixels.customConversion(account, id)),
  );
}

/**
 * `POST /ads/custom-conversions`: the rule checked against the platform's syntax, the ad account's count against its
 * limit (the 422 says which and what to do), then the custom conversion made once under `writeKey` (a lost answer is
 * looked for by its name).
 */
export function createCustomConversion(services: Services, principal: Principal, body: Create, writeKey: string): Promise<Presented> {
  return withAdAccount('adPixels', services, principal, body.adAccountId, { handle: pixelRefusals() }, async (pixels, account, row) => {
    const errors = ruleErrors(pixels, row.platform, body);
    if (errors.length > 0) throw new AdRequestRefusedError(`${row.platform} would refuse the custom conversion's rule.`, errors);
    const limit = pixels.customConversionRules.perAccount;
    if ((await pixels.customConversionCount(account)) >= limit)
      throw new AdPlatformRejectedError(
        `The ad account has ${limit} custom conversions, the most ${row.platform} allows (archived ones count too): ` +
          "archive or delete one in the platform's events manager, or reuse one (GET /ads/custom-conversions).",
        null,
        { code: null, subcode: null },
      );
    const { adAccountId: _, ...input } = body;
    const { result } = await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key: writeKey,
      kind: 'ad.customconversion',
      request: input,
      send: () => pixels.createCustomConversion(account, input),
      reconcile: (since) => pixels.findCustomConversion(account, body.name, since),
      store: async () => {},
    });
    return present(row, result);
  });
}
