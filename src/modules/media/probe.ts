import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { imageSizeFromFile } from 'image-size/fromFile';
import { MediaRejectedError } from './errors.js';
import type { MediaType } from './detect.js';

/** What the bytes say besides their type; `null` where it does not apply. */
export interface Probed {
  width: number | null;
  height: number | null;
  durationMs: number | null;
  codec: string | null;
  frameRate: number | null;
  /** Streams ffprobe found, to tell a video from a sound-only MP4. */
  hasVideo: boolean;
  hasAudio: boolean;
}

const PROBE_TIMEOUT_MS = 30_000;
const NOTHING: Probed = { width: null, height: null, durationMs: null, codec: null, frameRate: null, hasVideo: false, hasAudio: false };

let bundledFfprobe: string | null | undefined;

/** The ffprobe binary inside the @ffprobe-installer package of this platform (no download at install). */
function ffprobeBinary(configured: string | undefined): string {
  if (configured) return configured;
  if (bundledFfprobe === undefined) {
    try {
      bundledFfprobe = (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;
    } catch {
      bundledFfprobe = null;
    }
  }
  if (!bundledFfprobe) throw new Error('no ffprobe for this platform: set FFPROBE_PATH to an ffprobe binary');
  return bundledFfprobe;
}

function unreadable(type: MediaType, why: string): MediaRejectedError {
  return new MediaRejectedError('unreadable', `The file looks like ${type.label} but cannot be read: ${why}.`);
}

/** The image types sharp decodes (its libvips reads no HEVC: a HEIC picture is read to its header only). */
const DECODED_IMAGES = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * Decodes every pixel (on libuv's threads), so that a file cut short or damaged after its header is refused
 * rather than stored with the dimensions its header claims. `stats` reads the whole picture without keeping it.
 */
async function decodeImage(path: string, type: MediaType): Promise<void> {
  if (!DECODED_IMAGES.has(type.mimeType)) return;
  try {
    // Imported on first use, not at every start.
    const { default: sharp } = await import('sharp');
    await sharp(path, { failOn: 'truncated' }).stats();
  } catch (error) {
    // "VipsJpeg: premature end of JPEG image": the decoder's words, without its name.
    throw unreadable(type, (error as Error).message.split('\n')[0]!.replace(/^\w+: /, ''));
  }
}

async function probeImage(path: string, type: MediaType): Promise<Probed> {
  let size: Awaited<ReturnType<typeof imageSizeFromFile>>;
  try {
    size = await imageSizeFromFile(path);
  } catch (error) {
    throw unreadable(type, (error as Error).message);
  }
  if (!size.width || !size.height) throw unreadable(type, 'it has no dimensions');
  await decodeImage(path, type);
  // EXIF orientations 5–8 turn the picture a quarter: the width a person sees is the stored height.
  const turned = (size.orientation ?? 1) >= 5;
  return { ...NOTHING, width: turned ? size.height : size.width, height: turned ? size.width : size.height };
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: Array<{ rotation?: number }>;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string };
}

/**
 * ffprobe reading every packet of the file (`-count_packets`), not just its header: a file cut short or damaged
 * further in says so on stderr (it still exits 0), and is refused with ffprobe's last word on it.
 */
function runFfprobe(binary: string, path: string, demuxer: string): Promise<FfprobeOutput> {
  const args = [
    '-v',
    'error',
    '-hide_banner',
    // Read only the local file, as the detected format: no playlist or reference may make ffprobe open anything else.
    '-protocol_whitelist',
    'file',
    '-f',
    demuxer,
    '-print_format',
    'json',
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate' +
      ':stream_disposition=attached_pic:stream_side_data=rotation',
    '-count_packets',
    `file:${path}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      const problems = String(stderr).trim();
      if (error) return reject(Object.assign(error, { stderr: problems.split('\n')[0] }));
      // "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x…] stream 0, offset 0x1049: partial file": the words, without the reader.
      if (problems)
        return reject(
          Object.assign(new Error('damaged'), {
            stderr: problems
              .split('\n')
              .at(-1)!
              .replace(/^\[[^\]]*\] /, ''),
          }),
        );
      try {
        return resolve(JSON.parse(stdout) as FfprobeOutput);
      } catch (parseError) {
        return reject(parseError);
      }
    });
  });
}

function rate(fraction: string | undefined): number | null {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return null;
  return Math.round((num / den) * 1000) / 1000;
}

async function probeStreams(path: string, type: MediaType, ffprobePath: string | undefined): Promise<Probed> {
  const binary = ffprobeBinary(ffprobePath);
  let output: FfprobeOutput;
  try {
    output = await runFfprobe(binary, path, type.demuxer!);
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string; killed?: boolean };
    // A missing or broken binary is ours to fix, not the file's.
    if (err.code === 'ENOENT' || err.code === 'EACCES') throw error;
    throw unreadable(type, err.killed ? 'reading it took too long' : err.stderr || 'it is damaged or not what its first bytes say');
  }
  const streams = output.streams ?? [];
  // A cover picture inside an audio or video file is a video stream too; it is not the picture that plays.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const seconds = Number(output.format?.duration);
  const durationMs = Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
  const quarterTurn = Math.abs(video?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0) % 180 === 90;
  const width = video?.width || null;
  const height = video?.height || null;
  return {
    width: quarterTurn ? height : width,
    height: quarterTurn ? width : height,
    durationMs,
    codec: (type.kind === 'gif' ? null : (video ?? audio)?.codec_name) ?? null,
    frameRate: video && type.kind === 'video' ? (rate(video.avg_frame_rate) ?? rate(video.r_frame_rate)) : null,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
  };
}

/**
 * Dimensions of images (image-size; every pixel decoded by sharp); dimensions, duration, codec and frame rate of
 * the rest (ffprobe, every packet read).
 */
export async function probe(path: string, type: MediaType, ffprobePath: string | undefined): Promise<Probed> {
  if (type.kind === 'image') return probeImage(path, type);
  if (!type.demuxer) return NOTHING;
  return probeStreams(path, type, ffprobePath);
}
