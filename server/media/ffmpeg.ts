import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { VideoDemuxer } from '../../src/domain/file-signature.ts';

/**
 * ffmpeg and ffprobe from the PATH (or FFMPEG_PATH / FFPROBE_PATH). Every call is a child
 * process with an AbortSignal: a lost lease or a stopping server kills it.
 */

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export function mediaTools(env: Record<string, string | undefined> = process.env): MediaTools {
  return { ffmpeg: env.FFMPEG_PATH || 'ffmpeg', ffprobe: env.FFPROBE_PATH || 'ffprobe' };
}

export class ProcessError extends Error {
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * Text with the query strings of its URLs cut: ffmpeg names its input in errors, and a
 * presigned URL's query is a credential (signature, key id) that must not reach logs or the
 * staff's job list.
 */
export function redactUrls(text: string): string {
  return (
    text
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s?#'"]*)[?#][^\s'":]*/gi, '$1?…')
      // A URL cut by the stderr window keeps no scheme: its signing parameters go all the same.
      .replace(/\b(X-Amz-[A-Za-z-]+)=[^&\s'":]*/gi, '$1=…')
  );
}

/** Runs `bin args`; resolves with stdout, rejects with the tail of stderr (URLs without their query). */
export function run(bin: string, args: string[], options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const kill = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', kill, { once: true });
    const timer = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : null;
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      // Not the spawn error itself: it carries the arguments (`spawnargs`), presigned URL included, into the logs.
      reject(new ProcessError(`${bin} could not be started: ${error.code ?? error.message}`, null));
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      if (options.signal?.aborted) return reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      if (code === 0) return resolve(Buffer.concat(stdout).toString('utf8'));
      const tail = redactUrls(stderr.trim().split('\n').slice(-6).join('\n'));
      reject(new ProcessError(`${bin} exited with ${code ?? signal}: ${tail}`, code));
    });
  });
}

/** True when `ffmpeg -version` and `ffprobe -version` both answer. */
export async function toolsAvailable(tools: MediaTools): Promise<boolean> {
  try {
    await run(tools.ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 10_000 });
    await run(tools.ffprobe, ['-hide_banner', '-version'], { timeoutMs: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export interface ProbeResult {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string | null;
  audioCodec: string | null;
  formatName: string;
  /** The video stream's `r_frame_rate` and `avg_frame_rate` as ffprobe prints them ("30000/1001"), when it has them. */
  frameRate: { real: string | null; average: string | null };
  /** The video stream's frame count when the container states it (`nb_frames`, MP4/MOV do), else null. */
  frameCount: number | null;
  /** The video stream's own duration in seconds, when it has one (the container's may be longer: audio). */
  videoDurationSeconds: number | null;
}

interface FfprobeJson {
  format?: { duration?: string; format_name?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    r_frame_rate?: string;
    avg_frame_rate?: string;
    nb_frames?: string;
  }[];
}

export async function probe(tools: MediaTools, input: MediaInput, signal?: AbortSignal): Promise<ProbeResult> {
  const output = await run(tools.ffprobe, ['-v', 'error', ...readArgs(input), '-print_format', 'json', '-show_format', '-show_streams', input.url], {
    signal,
    timeoutMs: 120_000,
  });
  const json = JSON.parse(output) as FfprobeJson;
  const video = json.streams?.find((s) => s.codec_type === 'video');
  const audio = json.streams?.find((s) => s.codec_type === 'audio');
  return {
    durationSeconds: Number(json.format?.duration ?? video?.duration ?? 0) || 0,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    formatName: json.format?.format_name ?? '',
    frameRate: { real: video?.r_frame_rate ?? null, average: video?.avg_frame_rate ?? null },
    frameCount: /^\d{1,9}$/.test(video?.nb_frames ?? '') && Number(video!.nb_frames) > 0 ? Number(video!.nb_frames) : null,
    videoDurationSeconds: Number(video?.duration) > 0 ? Number(video!.duration) : null,
  };
}

/**
 * What ffmpeg reads: a source URL (a presigned GET, or a local file) and the demuxer its
 * sniffed container maps to (src/domain/file-signature.ts).
 */
export interface MediaInput {
  url: string;
  demuxer: VideoDemuxer;
}

/**
 * Protocols ffmpeg may open for a source (issue 9): exactly what reading it takes, so nothing
 * inside a file can make the server fetch another address or read its own files. A nested
 * open inherits the list, and `file` is allowed only for a local source.
 */
export function protocolWhitelist(url: string): string {
  if (/^https:/i.test(url)) return 'https,tls,tcp';
  if (/^http:/i.test(url)) return 'http,tcp';
  return 'file';
}

/** Demuxer options that keep a container to its own bytes: QuickTime data references stay off. */
const DEMUXER_OPTIONS: Partial<Record<VideoDemuxer, string[]>> = {
  mov: ['-enable_drefs', '0', '-use_absolute_path', '0'],
};

/**
 * Input options before `-i`/the URL: the demuxer forced with `-f` (ffmpeg never guesses a
 * format, so a playlist or concat list is never read as one), and the protocol whitelist.
 */
function readArgs(input: MediaInput): string[] {
  return ['-protocol_whitelist', protocolWhitelist(input.url), '-f', input.demuxer, ...(DEMUXER_OPTIONS[input.demuxer] ?? [])];
}

/** ffmpeg reading over HTTP (a presigned URL): reconnect on a dropped connection instead of failing the job. */
function inputArgs(input: MediaInput): string[] {
  const http = /^https?:/i.test(input.url) ? ['-reconnect', '1', '-reconnect_on_network_error', '1', '-reconnect_delay_max', '10'] : [];
  return [...http, ...readArgs(input), '-i', input.url];
}

const COMMON = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error'];

/** Height scaled down to at most `max` (never up), both sides even as H.264 wants. */
const scaleTo = (max: number) => `scale=w=-2:h=trunc(min(${max}\\,ih)/2)*2`;

/** One JPEG frame, 960 px wide at most, from a tenth into the video (at most 1 s in). */
export async function makeThumbnail(tools: MediaTools, input: MediaInput, output: string, durationSeconds: number, signal?: AbortSignal): Promise<void> {
  const at = Math.max(0, Math.min(1, durationSeconds / 10));
  await run(
    tools.ffmpeg,
    [
      ...COMMON,
      '-ss',
      at.toFixed(3),
      ...inputArgs(input),
      '-frames:v',
      '1',
      '-vf',
      'scale=w=trunc(min(960\\,iw)/2)*2:h=-2',
      '-q:v',
      '3',
      '-f',
      'image2',
      output,
    ],
    { signal },
  );
}

/**
 * One JPEG of the frame starting at `seconds` ("1.501500"), `width` px wide: a commented frame
 * for the comments PDF. `-ss` before the input seeks accurately when decoding (from the key frame
 * before, dropping frames until the time) without decoding the video up to there.
 */
export async function makeFrameJpeg(
  tools: MediaTools,
  input: MediaInput,
  output: string,
  seconds: string,
  width: number,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<void> {
  await run(
    tools.ffmpeg,
    [
      ...COMMON,
      '-ss',
      seconds,
      ...inputArgs(input),
      '-frames:v',
      '1',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      `scale=w=${width}:h=-2`,
      '-q:v',
      '4',
      '-f',
      'image2',
      output,
    ],
    options,
  );
}

export interface Rendition {
  /** Largest height; smaller sources keep theirs. */
  maxHeight: number;
  crf: number;
  audioKbps: number;
}

/** H.264/AAC MP4 that starts playing before it is fully downloaded (faststart). */
export async function makeMp4(tools: MediaTools, input: MediaInput, output: string, rendition: Rendition, signal?: AbortSignal): Promise<void> {
  await run(
    tools.ffmpeg,
    [
      ...COMMON,
      ...inputArgs(input),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-vf',
      scaleTo(rendition.maxHeight),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      String(rendition.crf),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      `${rendition.audioKbps}k`,
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      output,
    ],
    { signal },
  );
}

/** The source as it is, in an MP4 with faststart (for H.264 sources already within HD). */
export async function remuxMp4(tools: MediaTools, input: MediaInput, output: string, signal?: AbortSignal): Promise<void> {
  await run(tools.ffmpeg, [...COMMON, ...inputArgs(input), '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output], {
    signal,
  });
}

export interface HlsVariant {
  height: number;
  videoKbps: number;
}

/** The HLS ladder: 720p and 360p (smaller sources keep their height), 4-second segments. */
export const HLS_LADDER: HlsVariant[] = [
  { height: 720, videoKbps: 2800 },
  { height: 360, videoKbps: 800 },
];

/** Master playlist `index.m3u8` in `dir`, one folder per variant (`v0/`, `v1/`) with its playlist and segments. */
export async function makeHls(tools: MediaTools, input: MediaInput, dir: string, hasAudio: boolean, signal?: AbortSignal): Promise<void> {
  const n = HLS_LADDER.length;
  const split = `[0:v]split=${n}${HLS_LADDER.map((_v, i) => `[s${i}]`).join('')}`;
  const scales = HLS_LADDER.map((v, i) => `[s${i}]${scaleTo(v.height)}[o${i}]`);
  const args = [...COMMON, ...inputArgs(input), '-filter_complex', [split, ...scales].join(';')];
  HLS_LADDER.forEach((v, i) => {
    args.push(
      '-map',
      `[o${i}]`,
      `-c:v:${i}`,
      'libx264',
      `-b:v:${i}`,
      `${v.videoKbps}k`,
      `-maxrate:v:${i}`,
      `${Math.round(v.videoKbps * 1.1)}k`,
      `-bufsize:v:${i}`,
      `${v.videoKbps * 2}k`,
    );
  });
  if (hasAudio) HLS_LADDER.forEach(() => args.push('-map', '0:a:0'));
  args.push(
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    '-sc_threshold',
    '0',
    ...(hasAudio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : []),
    '-f',
    'hls',
    '-hls_time',
    '4',
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    join(dir, 'v%v', 'seg_%04d.ts'),
    '-master_pl_name',
    'index.m3u8',
    '-var_stream_map',
    HLS_LADDER.map((_v, i) => (hasAudio ? `v:${i},a:${i}` : `v:${i}`)).join(' '),
    join(dir, 'v%v', 'playlist.m3u8'),
  );
  await run(tools.ffmpeg, args, { signal });
}
