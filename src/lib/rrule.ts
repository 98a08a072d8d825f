import { createRequire } from 'node:module';
import type * as RRuleModule from 'rrule';

/**
 * `rrule` as Node loads it. Its package names an ES module build only for bundlers (`module`); Node's ESM
 * loader takes its CommonJS build, which offers no named exports (`import { RRule } from 'rrule'` fails at start).
 * The CommonJS build, typed by the package's own declarations.
 */
const rrule = createRequire(import.meta.url)('rrule') as typeof RRuleModule;

export const { RRule, RRuleSet } = rrule;
export type RRule = RRuleModule.RRule;
export type RRuleSet = RRuleModule.RRuleSet;
