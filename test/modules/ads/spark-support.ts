/** A Spark boost body TikTok takes: 50 USD a day (its ad group minimum is 20) for a week, in the US. */
export const sparkBody = (adAccountId: string, platformPostId: string, extra: Record<string, unknown> = {}) => ({
  adAccountId,
  platformPostId,
  dailyBudget: 5000,
  durationDays: 7,
  targeting: { geoLocations: { countries: ['US'] } },
  ...extra,
});
