import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
// sharp and ffmpeg's installer are imported where first used: the sandbox starts with the service, and they cost it
// a tenth of a second.

/** A colour of its own for each prompt, so the same prompt always gives the same picture. */
function colours(seed: string): Array<{ r: number; g: number; b: number }> {
  const digest = createHash('sha256').update(seed).digest();
  return [0, 3, 6].map((at) => ({ r: digest[at]!, g: digest[at + 1]!, b: digest[at + 2]! }));
}

/** A real picture of the size asked for: a background and two shapes in the prompt's colours. */
export async function makeImage(seed: string, width: number, height: number, format: 'png' | 'jpeg' | 'webp'): Promise<Buffer> {
  const [background, first, second] = colours(seed);
  const hex = ({ r, g, b }: { r: number; g: number; b: number }) => `rgb(${r},${g},${b})`;
  const shapes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="${hex(first!)}"/>` +
      `<rect x="${width / 2}" y="${height / 4}" width="${width / 3}" height="${height / 2}" fill="${hex(second!)}"/></svg>`,
  );
  const { default: sharp } = await import('sharp');
  const image = sharp({ create: { width, height, channels: 3, background: background! } }).composite([{ input: shapes }]);
  return format === 'jpeg' ? image.jpeg().toBuffer() : format === 'webp' ? image.webp().toBuffer() : image.png().toBuffer();
}

/** An edit of a reference image: the same picture, tinted by the prompt, at the size asked for. */
export async function editImage(reference: Buffer, seed: string, width: number, height: number): Promise<Buffer> {
  const [tint] = colours(seed);
  const { default: sharp } = await import('sharp');
  return sharp(reference).resize(width, height, { fit: 'cover' }).tint(tint!).png().toBuffer();
}

/** Bytes that start like a PNG and are not one: what a provider's broken answer looks like. */
export function corruptImage(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(512)]);
}

const SAMPLE_RATE = 24_000;

/** How long speech of a text lasts: about 2.5 words a second, a second at least. */
export function speechSeconds(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round((words / 2.5) * 10) / 10);
}

/** 16-bit mono PCM in a WAV container: a tone per word, so the sound follows the text. */
export function makeWav(text: string): Buffer {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const samples = Math.round(speechSeconds(text) * SAMPLE_RATE);
  const data = Buffer.alloc(samples * 2);
  const perWord = Math.max(1, Math.floor(samples / Math.max(1, words.length)));
  const pitches = (words.length > 0 ? words : ['']).map((word) => 180 + (createHash('md5').update(word).digest()[0]! % 200));
  for (let i = 0; i < samples; i++) {
    const pitch = pitches[Math.min(pitches.length - 1, Math.floor(i / perWord))]!;
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * pitch * i) / SAMPLE_RATE) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Runs ffmpeg in a folder of its own: `args` name `in` and `out` files there. */
async function withFfmpeg(input: Buffer | null, inputName: string, outputName: string, args: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-ai-'));
  try {
    if (input) await writeFile(join(dir, inputName), input);
    const { default: ffmpeg } = await import('@ffmpeg-installer/ffmpeg');
    await run(ffmpeg.path, ['-hide_banner', '-loglevel', 'error', '-y', ...args], { cwd: dir });
    return await readFile(join(dir, outputName));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function makeSpeech(text: string, format: 'mp3' | 'wav'): Promise<Buffer> {
  const wav = makeWav(text);
  if (format === 'wav') return wav;
  return withFfmpeg(wav, 'in.wav', 'out.mp3', ['-i', 'in.wav', '-c:a', 'libmp3lame', '-b:a', '64k', 'out.mp3']);
}

/** A playable H.264 MP4 of the size and length asked for: a moving test pattern at 24 frames a second. */
export function makeVideo(width: number, height: number, seconds: number): Promise<Buffer> {
  return withFfmpeg(null, '', 'out.mp4', [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=24:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    'out.mp4',
  ]);
}
