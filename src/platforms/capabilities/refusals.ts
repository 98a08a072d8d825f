/**
 * A platform's refusals of one kind of request, kept as data: each is recognised by what the platform answered —
 * its error code, a subcode, its words — and names what the refusal means to the caller. The first rule that fits
 * decides; an answer no rule fits is the platform's own words under a generic code, never another rule's name.
 */
export interface RefusalRule<Meaning extends string> {
  code?: number;
  subcode?: number;
  words?: RegExp;
  means: Meaning;
}

/** What the platform answered, as the rules read it. */
export interface RefusalAnswer {
  code?: number;
  subcode?: number;
  message: string;
}

export function refusalOf<Meaning extends string>(rules: ReadonlyArray<RefusalRule<Meaning>>, answer: RefusalAnswer): Meaning | null {
  const fits = (rule: RefusalRule<Meaning>) =>
    (rule.code === undefined || rule.code === answer.code) &&
    (rule.subcode === undefined || rule.subcode === answer.subcode) &&
    (rule.words === undefined || rule.words.test(answer.message));
  return rules.find(fits)?.means ?? null;
}
