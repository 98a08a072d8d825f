import { createHash } from 'node:crypto';

/** Words to write with, per language; any other language is written in English. */
const VOCABULARY: Record<string, { open: string[]; link: string[]; close: string[] }> = {
  en: {
    open: ['Meet', 'Discover', 'Say hello to', 'Here comes', 'Try'],
    link: ['made for you', 'with care', 'every day', 'at its best', 'for a limited time'],
    close: ['Tell us what you think.', 'See you soon.', 'Come and try it.', 'Share it with a friend.'],
  },
  fr: {
    open: ['Découvrez', 'Voici', 'Essayez', 'Bienvenue à'],
    link: ['fait pour vous', 'avec soin', 'chaque jour', 'pour un temps limité'],
    close: ['Dites-nous ce que vous en pensez.', 'À bientôt.', 'Venez essayer.'],
  },
  de: {
    open: ['Entdecke', 'Hier ist', 'Probiere', 'Willkommen'],
    link: ['für dich gemacht', 'mit Liebe', 'jeden Tag', 'nur für kurze Zeit'],
    close: ['Sag uns deine Meinung.', 'Bis bald.', 'Komm vorbei.'],
  },
  es: {
    open: ['Descubre', 'Aquí está', 'Prueba', 'Bienvenido a'],
    link: ['hecho para ti', 'con cariño', 'cada día', 'por tiempo limitado'],
    close: ['Cuéntanos qué te parece.', 'Hasta pronto.', 'Ven a probarlo.'],
  },
};

/** What the service's instructions ask for, read from its system message. */
export interface Asked {
  language: string;
  maxChars: number;
  hashtags: boolean;
}

export function readInstructions(system: string, maxTokens: number | undefined): Asked {
  const language = /Language:\s*([a-z]{2,3})/i.exec(system)?.[1]?.toLowerCase() ?? 'en';
  const chars = Number(/at most (\d+) characters/i.exec(system)?.[1] ?? 0);
  const byTokens = maxTokens ? maxTokens * 4 : Infinity;
  return { language, maxChars: Math.min(chars || 600, byTokens), hashtags: /hashtags/i.test(system) };
}

function pick<T>(list: T[], digest: Buffer, at: number): T {
  return list[digest[at % digest.length]! % list.length]!;
}

/** The prompt's own words worth repeating: the longer ones, in order, once each. */
function keywords(prompt: string): string[] {
  const words = prompt.match(/\p{L}{4,}/gu) ?? [];
  return [...new Set(words.map((word) => word.toLowerCase()))].slice(0, 8);
}

/** Cuts at a word boundary so the text has at most `max` characters (code points). */
function fit(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/**
 * Deterministic copy for a prompt: the same prompt and variant always give the same text, in the language asked
 * for, within the length asked for, ending with hashtags made of the prompt's words when asked.
 */
export function writeCopy(prompt: string, asked: Asked, variant: number): string {
  const digest = createHash('sha256').update(`${variant}:${prompt}`).digest();
  const words = VOCABULARY[asked.language] ?? VOCABULARY.en!;
  const topic = keywords(prompt);
  const subject = topic.slice(0, 3).join(', ') || 'something new';
  const sentences = [
    `${pick(words.open, digest, 0)} ${subject}, ${pick(words.link, digest, 1)}.`,
    topic.length > 3 ? `${topic.slice(3).join(', ')} — ${pick(words.link, digest, 2)}.` : '',
    pick(words.close, digest, 3),
  ].filter(Boolean);
  const tags = asked.hashtags ? topic.slice(0, 3).map((word) => `#${word}`) : [];
  const tagText = tags.length ? ` ${tags.join(' ')}` : '';
  const room = Math.max(1, asked.maxChars - [...tagText].length);
  const body = fit(sentences.join(' '), room);
  return [...(body + tagText)].length <= asked.maxChars ? body + tagText : fit(body, asked.maxChars);
}
