/** Flows counted per owner, profile and month by `UsageRecorder` (gauges are counted when read, see read.ts). */
export const COUNTERS = [
  'posts',
  'messages',
  'aiGenerations',
  'aiTokens',
  'aiSeconds',
  'aiImages',
  'apiRequests',
  'webhookDeliveries',
  'mediaStorageBytes',
] as const;
export type Counter = (typeof COUNTERS)[number];

/** Counted when read: what exists now, not what happened in the period. */
export const GAUGES = ['connectedAccounts', 'profiles'] as const;
export type Gauge = (typeof GAUGES)[number];

export type Metric = Counter | Gauge;
export const METRICS: readonly Metric[] = [...COUNTERS, ...GAUGES];
