import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import type { APIRequestContext } from '@playwright/test';
import { MP4_FTYP } from '../tests/support/file-fixtures.ts';

/**
 * A clip of `bytes` at `path`, made once: an MP4 `ftyp` box, then random bytes (the server
 * registers a clip only when its signature is a video container, issue 9). Resolves with its
 * SHA-256, computed as it is written (or read, when a run before made it). A file of another
 * size, or one an older run left without the signature, is made again.
 */
export async function makeClip(path: string, bytes: number): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const hash = createHash('sha256');
  const startsLikeMp4 = async () => {
    for await (const head of createReadStream(path, { start: 0, end: MP4_FTYP.length - 1 })) return (head as Buffer).equals(MP4_FTYP);
    return false;
  };
  if ((await stat(path).catch(() => null))?.size === bytes && (await startsLikeMp4())) {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }
  const out = createWriteStream(path);
  const block = 4 * 1024 * 1024;
  for (let written = 0; written < bytes; written += block) {
    const chunk = randomBytes(Math.min(block, bytes - written));
    if (written === 0) MP4_FTYP.copy(chunk, 0);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

/**
 * What the project holds as interview clips, as its owner lists them, and for the first one its
 * size, the answer of its download link and the SHA-256 of the bytes served.
 */
export async function storedInterviewClip(
  request: APIRequestContext,
  projectId: number,
  token: string,
): Promise<{ clips: number; size: number; status: number; sha256: string }> {
  const assets = (await (
    await request.get(`/api/v1/projects/${projectId}/assets?type=InterviewClip`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { size: number; url: string }[];
  const download = await fetch(assets[0]!.url);
  const hash = createHash('sha256');
  for await (const chunk of Readable.fromWeb(download.body as import('node:stream/web').ReadableStream)) hash.update(chunk as Buffer);
  return { clips: assets.length, size: assets[0]!.size, status: download.status, sha256: hash.digest('hex') };
}
