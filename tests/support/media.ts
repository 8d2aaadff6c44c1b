import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** True when ffmpeg and ffprobe are on the PATH (CI installs Debian's ffmpeg). */
export async function hasFfmpeg(): Promise<boolean> {
  try {
    await exec('ffmpeg', ['-hide_banner', '-version']);
    await exec('ffprobe', ['-hide_banner', '-version']);
    return true;
  } catch {
    return false;
  }
}

/** A generated clip (test pattern and a tone) of `seconds`, as MP4 bytes. */
export async function generateClip(options: {
  seconds: number;
  width?: number;
  height?: number;
  audio?: boolean;
  codec?: 'libx264' | 'mpeg4';
}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-clip-'));
  const out = join(dir, 'clip.mp4');
  const { seconds, width = 1280, height = 720, audio = true, codec = 'libx264' } = options;
  try {
    await exec('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=25`,
      ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
      '-t',
      String(seconds),
      '-c:v',
      codec,
      ...(codec === 'libx264' ? ['-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] : ['-q:v', '5']),
      ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface Probed {
  duration: number;
  width: number;
  height: number;
  videoCodec: string | null;
  audioCodec: string | null;
}

/** ffprobe of a file or URL (an HLS playlist URL is followed through its variants and segments). */
export async function ffprobe(input: string): Promise<Probed> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], { maxBuffer: 16 * 1024 * 1024 });
  const json = JSON.parse(stdout) as { format: { duration?: string }; streams: { codec_type: string; codec_name: string; width?: number; height?: number }[] };
  const video = json.streams.filter((s) => s.codec_type === 'video').sort((a, b) => (b.height ?? 0) - (a.height ?? 0))[0];
  const audio = json.streams.find((s) => s.codec_type === 'audio');
  return {
    duration: Number(json.format.duration ?? 0),
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
  };
}

/** Decodes every frame (fails on a broken file): the output is playable, not just probe-able. */
export async function decodesCleanly(input: string): Promise<void> {
  await exec('ffmpeg', ['-hide_banner', '-v', 'error', '-xerror', '-i', input, '-f', 'null', '-'], { maxBuffer: 16 * 1024 * 1024 });
}
