import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../server/media/ffmpeg.ts';
import { versionMeasure } from '../../server/review/measure.ts';

const probe = (overrides: Partial<ProbeResult>): ProbeResult => ({
  durationSeconds: 10,
  width: 1920,
  height: 1080,
  videoCodec: 'h264',
  audioCodec: 'aac',
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  frameRate: { real: '30000/1001', average: '30000/1001' },
  frameCount: null,
  videoDurationSeconds: null,
  ...overrides,
});

describe('a version’s frame rate and length from ffprobe', () => {
  it('takes r_frame_rate, reduced, and the stated frame count', () => {
    expect(versionMeasure(probe({ frameRate: { real: '50/2', average: '25/1' }, frameCount: 250 }))).toEqual({
      frameRate: { num: 25, den: 1 },
      durationFrames: 250,
      width: 1920,
      height: 1080,
    });
  });

  it('falls back to avg_frame_rate when r_frame_rate is unknown or implausible (variable-rate phone video)', () => {
    expect(versionMeasure(probe({ frameRate: { real: '0/0', average: '30000/1001' } })).frameRate).toEqual({ num: 30000, den: 1001 });
    expect(versionMeasure(probe({ frameRate: { real: '90000/1', average: '2997/100' } })).frameRate).toEqual({ num: 2997, den: 100 });
  });

  it('computes the length from the video stream’s duration, else the container’s, when no count is stated', () => {
    expect(versionMeasure(probe({ videoDurationSeconds: 2.002 })).durationFrames).toBe(60);
    expect(versionMeasure(probe({})).durationFrames).toBe(300);
  });

  it('knows nothing when ffprobe tells no rate', () => {
    expect(versionMeasure(probe({ frameRate: { real: null, average: '0/0' }, width: 0, height: 0 }))).toEqual({
      frameRate: null,
      durationFrames: null,
      width: null,
      height: null,
    });
  });
});
