import { describe, expect, it } from 'vitest';
import {
  frameToSeconds,
  frameToTimecode,
  isDropFrame,
  nominalFps,
  parseFrameRate,
  secondsToFrame,
  timecodeToFrame,
  type FrameRate,
} from '../../src/domain/timecode.ts';

const rate = (num: number, den = 1): FrameRate => ({ num, den });
const R23976 = rate(24000, 1001);
const R24 = rate(24);
const R25 = rate(25);
const R2997 = rate(30000, 1001);
const R30 = rate(30);
const R50 = rate(50);
const R5994 = rate(60000, 1001);

describe('parseFrameRate', () => {
  it.each([
    ['30000/1001', { num: 30000, den: 1001 }],
    ['24000/1001', { num: 24000, den: 1001 }],
    ['60000/1001', { num: 60000, den: 1001 }],
    ['25/1', { num: 25, den: 1 }],
    ['50/1', { num: 50, den: 1 }],
    ['60/2', { num: 30, den: 1 }],
    ['25', { num: 25, den: 1 }],
    [' 30/1 ', { num: 30, den: 1 }],
    ['240/1', { num: 240, den: 1 }],
  ])('reads %j', (text, expected) => {
    expect(parseFrameRate(text)).toEqual(expected);
  });

  it.each(['0/0', '0/1', '25/0', '', 'abc', '30000/1001x', '-25/1', '25.0/1', '1/2/3', '241/1', '100000/1', 'NaN', '1e3/1', '9999999999/1'])(
    'refuses %j',
    (text) => {
      expect(parseFrameRate(text)).toBeNull();
    },
  );
});

describe('isDropFrame and nominalFps', () => {
  it('drops frames only at 29.97 and 59.94', () => {
    expect(isDropFrame(R2997)).toBe(true);
    expect(isDropFrame(R5994)).toBe(true);
    expect(isDropFrame(rate(60000, 2002))).toBe(true); // unreduced 29.97
    for (const r of [R23976, R24, R25, R30, R50, rate(60), rate(120000, 1001)]) expect(isDropFrame(r)).toBe(false);
  });

  it('counts NTSC rates at their nominal fps', () => {
    expect(nominalFps(R23976)).toBe(24);
    expect(nominalFps(R2997)).toBe(30);
    expect(nominalFps(R5994)).toBe(60);
    expect(nominalFps(R25)).toBe(25);
    expect(nominalFps(R50)).toBe(50);
    expect(nominalFps(rate(1, 10))).toBe(1);
  });
});

describe('frameToTimecode', () => {
  it.each([
    [R2997, 0, '00:00:00;00'],
    [R2997, 29, '00:00:00;29'],
    [R2997, 1799, '00:00:59;29'],
    [R2997, 1800, '00:01:00;02'],
    [R2997, 3597, '00:01:59;29'],
    [R2997, 3598, '00:02:00;02'],
    [R2997, 17981, '00:09:59;29'],
    [R2997, 17982, '00:10:00;00'],
    [R2997, 17983, '00:10:00;01'],
    [R2997, 19782, '00:11:00;02'],
    [R2997, 107892, '01:00:00;00'],
    [R5994, 3599, '00:00:59;59'],
    [R5994, 3600, '00:01:00;04'],
    [R5994, 35964, '00:10:00;00'],
    [R5994, 215784, '01:00:00;00'],
    [R23976, 86400, '01:00:00:00'],
    [R23976, 23, '00:00:00:23'],
    [R24, 86399, '00:59:59:23'],
    [R25, 90000, '01:00:00:00'],
    [R25, 1, '00:00:00:01'],
    [R30, 108000, '01:00:00:00'],
    [R50, 180049, '01:00:00:49'],
  ])('%j frame %i is %s', (r, frame, text) => {
    expect(frameToTimecode(frame, r)).toBe(text);
  });

  it('does not wrap at 24 hours', () => {
    expect(frameToTimecode(25 * 3600 * 25, R25)).toBe('25:00:00:00');
  });

  it('throws on frames that are not whole numbers ≥ 0', () => {
    for (const frame of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => frameToTimecode(frame, R25)).toThrow(RangeError);
  });
});

describe('timecodeToFrame', () => {
  it('reads known values', () => {
    expect(timecodeToFrame('00:01:00;02', R2997)).toBe(1800);
    expect(timecodeToFrame('00:10:00;00', R2997)).toBe(17982);
    expect(timecodeToFrame('01:00:00;00', R2997)).toBe(107892);
    expect(timecodeToFrame('01:00:00:00', R23976)).toBe(86400);
    expect(timecodeToFrame('01:00:00:00', R25)).toBe(90000);
  });

  it('accepts either separator before the frames', () => {
    expect(timecodeToFrame('00:01:00:02', R2997)).toBe(1800);
    expect(timecodeToFrame('00:00:01;05', R25)).toBe(30);
  });

  it.each([
    ['00:01:00;00', R2997],
    ['00:01:00;01', R2997],
    ['00:09:00;01', R2997],
    ['00:01:00;03', R5994],
    ['00:00:00:30', R2997],
    ['00:00:00:25', R25],
    ['00:00:00:24', R23976],
    ['00:60:00:00', R25],
    ['00:00:60:00', R25],
    ['0:00:00:00', R25],
    ['00:00:00', R25],
    ['00-00-00-00', R25],
    ['00:00:00:0', R25],
    ['', R25],
    ['01:00:00:00 extra', R25],
  ])('refuses %j at %j', (text, r) => {
    expect(timecodeToFrame(text, r)).toBeNull();
  });

  it('accepts the frame numbers kept at every tenth minute', () => {
    expect(timecodeToFrame('00:20:00;00', R2997)).toBe(35964);
    expect(timecodeToFrame('00:20:00;01', R2997)).toBe(35965);
  });
});

const RATES: [string, FrameRate][] = [
  ['23.976', R23976],
  ['24', R24],
  ['25', R25],
  ['29.97', R2997],
  ['30', R30],
  ['59.94', R5994],
];

describe('round trips over one hour', () => {
  it.each(RATES)('frame → timecode → frame at %s fps', (_, r) => {
    const frames = Math.ceil((3600 * r.num) / r.den);
    let previous = '';
    for (let frame = 0; frame <= frames; frame++) {
      const text = frameToTimecode(frame, r);
      if (timecodeToFrame(text, r) !== frame) throw new Error(`frame ${frame} → ${text} → ${timecodeToFrame(text, r)}`);
      // Timecodes of successive frames sort as strings: no two frames share one.
      if (!(text > previous)) throw new Error(`${previous} then ${text}`);
      previous = text;
    }
  });

  it.each(RATES)('frame → seconds → frame at %s fps', (_, r) => {
    const frames = Math.ceil((3600 * r.num) / r.den);
    for (let frame = 0; frame <= frames; frame++) {
      const seconds = frameToSeconds(frame, r);
      if (secondsToFrame(seconds, r) !== frame) throw new Error(`frame ${frame} → ${seconds}s → ${secondsToFrame(seconds, r)}`);
    }
  });
});

describe('frameToSeconds and secondsToFrame', () => {
  it('places frames at their start time', () => {
    expect(frameToSeconds(0, R2997)).toBe(0);
    expect(frameToSeconds(30000, R2997)).toBe(1001);
    expect(frameToSeconds(86400, R23976)).toBeCloseTo(3603.6, 9);
    expect(frameToSeconds(25, R25)).toBe(1);
  });

  it('shows the frame that started last', () => {
    expect(secondsToFrame(0, R25)).toBe(0);
    expect(secondsToFrame(0.039, R25)).toBe(0);
    expect(secondsToFrame(0.04, R25)).toBe(1);
    expect(secondsToFrame(1001, R2997)).toBe(30000);
    expect(secondsToFrame(1000.99, R2997)).toBe(29999);
    expect(secondsToFrame(frameToSeconds(1, R2997) - 0.001, R2997)).toBe(0);
  });

  it('throws on times players never report', () => {
    for (const seconds of [-0.001, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => secondsToFrame(seconds, R25)).toThrow(RangeError);
    expect(() => frameToSeconds(-1, R25)).toThrow(RangeError);
  });
});
