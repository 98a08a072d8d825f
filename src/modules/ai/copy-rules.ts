import type { Services } from '../../services.js';
import type { PublishContent } from '../../platforms/capabilities/publishing.js';

/** Long enough to break any platform's text limit, so its validator names the limit. */
const PROBE_LENGTH = 100_000;

/** How copy for a platform is measured: the platform's publishing validator, counting as the platform counts. */
export interface CopyRule {
  /** The most characters to ask the model for. */
  maxChars: number;
  /** Whether a text fits (the platform's rules and `maxLength`, in code points). */
  fits(text: string): boolean;
}

function textOnly(text: string): PublishContent {
  return { text, media: [], options: {} };
}

/**
 * The length rule of copy for `platform` (if it publishes) and `maxLength`: the platform's own validator decides
 * (the one `POST /posts` runs), so the text is counted as the platform counts it (code points, UTF-16 units).
 */
export function copyRule(services: Services, platform: string | undefined, maxLength: number | undefined): CopyRule {
  const publisher = platform ? services.platforms.get(platform)?.publisher : undefined;
  const tooLong = (text: string) => Boolean(publisher?.validate(textOnly(text)).some((violation) => violation.code === 'max_length'));
  const platformLimit = publisher?.validate(textOnly('x'.repeat(PROBE_LENGTH))).find((violation) => violation.code === 'max_length')?.limit;
  const limits = [maxLength, platformLimit ?? undefined].filter((limit): limit is number => typeof limit === 'number');
  const maxChars = limits.length > 0 ? Math.min(...limits) : 1000;
  return { maxChars, fits: (text) => [...text].length <= maxChars && !tooLong(text) };
}

/** The text cut at a word (or, failing that, a character) boundary until it fits. */
export function fitCopy(text: string, rule: CopyRule): string {
  if (rule.fits(text)) return text;
  let chars = [...text].slice(0, rule.maxChars);
  while (chars.length > 0) {
    const candidate = chars.join('').trimEnd();
    if (rule.fits(candidate)) {
      const space = candidate.lastIndexOf(' ');
      return space > candidate.length / 2 && rule.fits(candidate.slice(0, space)) ? candidate.slice(0, space).trimEnd() : candidate;
    }
    chars = chars.slice(0, -Math.max(1, Math.ceil(chars.length / 50)));
  }
  return '';
}
