import { expect } from 'chai';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import type { TestApp } from '../../support/app.js';
import type { ApiResponse } from '../../support/client.js';
import { assertMatchesContract } from '../../support/contract-check.js';
import type { TestOwner } from '../../support/owners.js';
import { testCertificate } from '../../support/tls.js';

// ---- Real files, made byte by byte (the fixtures folder holds the JPEG and MP4 that need an encoder).

export const fixture = (name: string) => readFileSync(new URL(`../../fixtures/media/${name}`, import.meta.url));

/** A 360×640, 30 fps, 2 s H.264 MP4: a video every platform takes. */
export const VIDEO = fixture('vertical.mp4');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG; `pixel` gives each pixel's colour (random bytes make it incompressible). */
export function png(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = (x, y) => [x * 20, y * 20, 128],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter, no interlace
  const rows = Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => pixel(x, y)).flat()]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of random pixels: incompressible, and never the same twice. */
export function noisyPng(width: number, height: number): Buffer {
  const random = () => Math.floor(Math.random() * 256);
  return png(width, height, () => [random(), random(), random()]);
}

/** A looping 1×1 GIF of `frames` frames, each shown for `delayCs` hundredths of a second. */
export function animatedGif(frames: number, delayCs: number): Buffer {
  const frame = Buffer.from([
    0x21,
    0xf9,
    0x04,
    0x00,
    delayCs & 0xff,
    delayCs >> 8,
    0x00,
    0x00, // graphic control: the delay
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0x00, // image descriptor: 1×1 at 0,0
    0x02,
    0x02,
    0x44,
    0x01,
    0x00, // LZW data of one pixel
  ]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
    Buffer.from([0, 0, 0, 255, 255, 255]),
    Buffer.from([0x21, 0xff, 0x0b]),
    Buffer.from('NETSCAPE2.0', 'latin1'),
    Buffer.from([0x03, 0x01, 0x00, 0x00, 0x00]),
    ...Array.from({ length: frames }, () => frame),
    Buffer.from([0x3b]),
  ]);
}

/** 16-bit mono PCM at 8 kHz: `ms` milliseconds of a tone. */
export function wav(ms: number): Buffer {
  const samples = (8000 * ms) / 1000;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) data.writeInt16LE(Math.round(8000 * Math.sin((i / 8000) * 2 * Math.PI * 440)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A 1×1 24-bit BMP: a real image of a type the service does not take. */
export function bmp(): Buffer {
  const file = Buffer.alloc(58);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(58, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(1, 18);
  file.writeInt32LE(1, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(4, 34);
  file.set([0, 0, 255, 0], 54);
  return file;
}

export function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
      'trailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}

// ---- Talking to the service with bodies the JSON client does not send.

export interface Part {
  bytes: Buffer;
  filename: string;
  type?: string;
}

/** POST /upload as multipart/form-data; the answer is checked against the contract like every other. */
export async function upload(
  app: TestApp,
  token: string,
  file: Part | undefined,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${app.url}/upload`, {
    method: 'POST',
    headers: { ...headers, Authorization: `Bearer ${token}` },
    body: form,
  });
  return checked(app, 'POST', '/upload', response);
}

/** Uploads a file to the owner's profile: its media id. */
export async function uploadMedia(app: TestApp, owner: TestOwner, bytes: Buffer, filename: string, type?: string): Promise<string> {
  const uploaded = await upload(app, owner.key, { bytes, filename, ...(type ? { type } : {}) }, { profileId: owner.profileId });
  expect(uploaded.status, uploaded.text).to.equal(201);
  return uploaded.body.id;
}

export const uploadPhoto = (app: TestApp, owner: TestOwner, name = 'photo.png') =>
  uploadMedia(app, owner, noisyPng(40, 40), name, 'image/png');
export const uploadVideo = (app: TestApp, owner: TestOwner) => uploadMedia(app, owner, fixture('tiny.mp4'), 'clip.mp4', 'video/mp4');

export async function checked(app: TestApp, method: string, path: string, response: Response): Promise<ApiResponse & { bytes: Buffer }> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type');
  const json = contentType && /json/.test(contentType);
  const body = json ? JSON.parse(bytes.toString('utf8')) : undefined;
  assertMatchesContract(app.services.contract, method, path, { status: response.status, contentType, body });
  return { status: response.status, headers: response.headers, body, text: json ? bytes.toString('utf8') : '', bytes };
}

/** GET of a media file URL (public: no token but the one in the query). */
export async function download(app: TestApp, url: string, headers: Record<string, string> = {}): Promise<ApiResponse & { bytes: Buffer }> {
  const response = await fetch(url, { headers });
  return checked(app, 'GET', new URL(url).pathname, response);
}

// ---- A place on this machine to import from, over HTTPS (the tests' certificate, which test apps trust) and HTTP.

type Route = (res: ServerResponse) => void;

export class FileServer {
  readonly routes = new Map<string, Route>();
  readonly requests: string[] = [];

  private constructor(
    private readonly servers: Server[],
    readonly httpsUrl: string,
    readonly httpUrl: string,
  ) {}

  static async start(): Promise<FileServer> {
    const { key, cert } = await testCertificate();
    let files: FileServer | undefined;
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      files!.requests.push(req.url ?? '');
      const route = files!.routes.get((req.url ?? '').split('?')[0]!);
      if (route) route(res);
      else res.writeHead(404).end('not here');
    };
    const https = createHttpsServer({ key, cert }, handle).listen(0, '127.0.0.1');
    const http = createHttpServer(handle).listen(0, '127.0.0.1');
    await Promise.all([once(https, 'listening'), once(http, 'listening')]);
    const port = (server: Server) => (server.address() as AddressInfo).port;
    files = new FileServer([https, http], `https://127.0.0.1:${port(https)}`, `http://127.0.0.1:${port(http)}`);
    return files;
  }

  serve(path: string, bytes: Buffer, type = 'application/octet-stream'): void {
    this.routes.set(path, (res) => res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes.length }).end(bytes));
  }

  redirect(path: string, to: string): void {
    this.routes.set(path, (res) => res.writeHead(302, { Location: to }).end());
  }

  async close(): Promise<void> {
    for (const server of this.servers) server.closeAllConnections();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
