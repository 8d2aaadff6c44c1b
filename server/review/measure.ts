import { parseFrameRate } from '../../src/domain/timecode.ts';
import type { ProbeResult } from '../media/ffmpeg.ts';
import type { VersionMeasure } from '../repositories/review.ts';

/**
 * What a version's review needs from ffprobe's answer: the exact frame rate and the length in
 * frames. The rate is `r_frame_rate` (the stream's real base rate, exact for constant-rate
 * video), else `avg_frame_rate` when the first is unknown or implausible (variable-rate phone
 * footage reports a time base such as 90000/1 there). The length is the stream's stated frame
 * count when the container has one (MP4/MOV), else its duration times the rate, rounded.
 */
export function versionMeasure(info: ProbeResult): VersionMeasure {
  const frameRate = parseFrameRate(info.frameRate.real ?? '') ?? parseFrameRate(info.frameRate.average ?? '');
  const seconds = info.videoDurationSeconds ?? (info.durationSeconds > 0 ? info.durationSeconds : null);
  const durationFrames = info.frameCount ?? (frameRate && seconds !== null ? Math.max(1, Math.round((seconds * frameRate.num) / frameRate.den)) : null);
  return {
    frameRate,
    durationFrames,
    width: info.width > 0 ? info.width : null,
    height: info.height > 0 ? info.height : null,
  };
}
