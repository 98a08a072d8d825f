import { buffer } from 'node:stream/consumers';
import type { Services } from '../../services.js';
import { storageFor, storageKeyFor } from '../media/storage.js';
import type { ProgramRow } from './models.js';

/** Sizes (in points, @1x) the vendor shows each image at; the @2x and @3x files carry 2 and 3 times the pixels. */
const ICON = { width: 29, height: 29 };
const LOGO = { width: 160, height: 50 };
const SCALES = [1, 2, 3] as const;

/** Built images by program version: a program's design is the same for every pass, signed thousands of times. */
const cache = new Map<string, Promise<Record<string, Buffer>>>();
const CACHE_SIZE = 200;

/**
 * The image files of a program's passes: `icon.png` (required by the vendor: the program's icon, else a plain
 * square of its background colour) and `logo.png` when it has a logo, each at @1x, @2x and @3x, made from the one
 * PNG uploaded.
 */
export function designImages(services: Services, program: ProgramRow): Promise<Record<string, Buffer>> {
  const key = `${program.id}:${program.updatedAt.getTime()}`;
  let images = cache.get(key);
  if (!images) {
    images = buildImages(services, program);
    images.catch(() => cache.delete(key));
    cache.set(key, images);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return images;
}

async function buildImages(services: Services, program: ProgramRow): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  const icon = program.iconMediaId ? await mediaBytes(services, program.iconMediaId) : await plainSquare(program);
  const logo = program.logoMediaId ? await mediaBytes(services, program.logoMediaId) : null;
  for (const scale of SCALES) {
    const suffix = scale === 1 ? '' : `@${scale}x`;
    files[`icon${suffix}.png`] = await resized(icon, ICON, scale, 'cover');
    if (logo) files[`logo${suffix}.png`] = await resized(logo, LOGO, scale, 'inside');
  }
  return files;
}

async function mediaBytes(services: Services, mediaId: string): Promise<Buffer> {
  return buffer(await storageFor(services.config).read(storageKeyFor(mediaId)));
}

// sharp is imported on first use, not at every start.
async function resized(image: Buffer, size: { width: number; height: number }, scale: number, fit: 'cover' | 'inside'): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(image)
    .resize({ width: size.width * scale, height: size.height * scale, fit, withoutEnlargement: fit === 'inside' })
    .png()
    .toBuffer();
}

async function plainSquare(program: ProgramRow): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const [r, g, b] = (program.colors?.background.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
  return sharp({ create: { width: ICON.width * 3, height: ICON.height * 3, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .png()
    .toBuffer();
}
