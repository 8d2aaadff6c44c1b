import { describe, expect, it } from 'vitest';
import { DRAWING_COLORS, DRAWING_LIMITS, DRAWING_PALETTE, scaleShape, validateDrawing, type Shape } from '../../src/domain/drawing.ts';

const freehand = (points: { x: number; y: number }[], color = 'red') => ({ kind: 'freehand', color, points });
const arrow = { kind: 'arrow', color: 'yellow', from: { x: 0.1, y: 0.2 }, to: { x: 0.5, y: 0.6 } };
const rectangle = { kind: 'rectangle', color: 'blue', x: 0.25, y: 0.25, width: 0.5, height: 0.75 };
const text = { kind: 'text', color: 'white', at: { x: 0.5, y: 0.9 }, text: 'Logo too small' };
const line = (n: number) => Array.from({ length: n }, (_, i) => ({ x: (i % 100) / 100, y: 0.5 }));

const message = (input: unknown) => {
  const result = validateDrawing(input);
  if (result.ok) throw new Error('expected a refusal');
  return result.message;
};

describe('the palette', () => {
  it('names six colours, each a hex colour', () => {
    expect(DRAWING_COLORS).toEqual(['red', 'orange', 'yellow', 'green', 'blue', 'white']);
    for (const c of DRAWING_COLORS) expect(DRAWING_PALETTE[c]).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('validateDrawing', () => {
  it('keeps a valid drawing exactly', () => {
    const input = {
      shapes: [
        freehand([
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]),
        arrow,
        rectangle,
        text,
      ],
    };
    expect(validateDrawing(input)).toEqual({ ok: true, drawing: input });
    expect(validateDrawing({ shapes: [] })).toEqual({ ok: true, drawing: { shapes: [] } });
  });

  it('returns a copy, not the input', () => {
    const input = { shapes: [arrow] };
    const result = validateDrawing(input);
    expect(result.ok && result.drawing.shapes[0]).not.toBe(arrow);
  });

  it('accepts a rectangle drawn to the edge despite rounding', () => {
    expect(0.5 + 0.5000000000000002).toBeGreaterThan(1);
    expect(validateDrawing({ shapes: [{ ...rectangle, x: 0.5, width: 0.5000000000000002, y: 0, height: 1 }] }).ok).toBe(true);
    expect(validateDrawing({ shapes: [{ ...rectangle, x: 0.5, width: 0.500001, y: 0, height: 1 }] }).ok).toBe(false);
  });

  it('takes at most 50 shapes', () => {
    expect(validateDrawing({ shapes: Array(DRAWING_LIMITS.shapes).fill(arrow) }).ok).toBe(true);
    expect(message({ shapes: Array(DRAWING_LIMITS.shapes + 1).fill(arrow) })).toBe('A drawing can have at most 50 shapes.');
  });

  it('takes at most 2000 points in all', () => {
    expect(validateDrawing({ shapes: [freehand(line(1500)), freehand(line(500))] }).ok).toBe(true);
    expect(message({ shapes: [freehand(line(1500)), freehand(line(501))] })).toBe('A drawing can have at most 2000 points in all.');
    expect(message({ shapes: [freehand(line(2001))] })).toBe('A drawing can have at most 2000 points in all.');
  });

  it.each([
    ['not an object', null, 'A drawing must be an object with a list of shapes.'],
    ['an array', [arrow], 'A drawing must be an object with a list of shapes.'],
    ['no list', {}, 'A drawing must have a list of shapes.'],
    ['an unknown field', { shapes: [], scale: 2 }, 'The drawing has an unknown field "scale".'],
    ['a shape that is no object', { shapes: ['x'] }, 'Shape 1 must be an object.'],
    ['an unknown kind', { shapes: [{ ...arrow, kind: 'circle' }] }, 'Shape 1: the kind must be freehand, arrow, rectangle or text.'],
    ['an inherited kind', { shapes: [{ ...arrow, kind: 'toString' }] }, 'Shape 1: the kind must be freehand, arrow, rectangle or text.'],
    [
      'a colour off the palette',
      { shapes: [arrow, { ...arrow, color: '#ff0000' }] },
      'Shape 2: the colour must be one of red, orange, yellow, green, blue, white.',
    ],
    ['a missing colour', { shapes: [{ ...arrow, color: undefined }] }, 'Shape 1: the colour must be one of red, orange, yellow, green, blue, white.'],
    ['an unknown shape field', { shapes: [{ ...arrow, width: 3 }] }, 'Shape 1 has an unknown field "width".'],
    ['a coordinate above 1', { shapes: [{ ...arrow, to: { x: 1.01, y: 0 } }] }, 'Shape 1 end.x must be between 0 and 1 (relative to the frame), got 1.01.'],
    ['a negative coordinate', { shapes: [{ ...rectangle, x: -0.1 }] }, 'Shape 1 x must be between 0 and 1 (relative to the frame), got -0.1.'],
    ['NaN', { shapes: [{ ...rectangle, y: Number.NaN }] }, 'Shape 1 y must be a finite number.'],
    ['Infinity', { shapes: [freehand([{ x: Number.POSITIVE_INFINITY, y: 0 }])] }, 'Shape 1 point 1.x must be a finite number.'],
    ['a numeric string', { shapes: [{ ...arrow, from: { x: '0.5', y: 0.5 } }] }, 'Shape 1 start.x must be a finite number.'],
    ['a point that is no object', { shapes: [{ ...text, at: [0.5, 0.5] }] }, 'Shape 1 position must be a point { x, y }.'],
    ['a point with extra fields', { shapes: [{ ...text, at: { x: 0.5, y: 0.5, z: 0 } }] }, 'Shape 1 position has an unknown field "z".'],
    ['a rectangle leaving the frame', { shapes: [{ ...rectangle, x: 0.6, width: 0.5 }] }, 'Shape 1: the rectangle must lie inside the frame.'],
    ['an empty stroke', { shapes: [freehand([])] }, 'Shape 1: a freehand stroke needs at least one point.'],
    ['a stroke without points', { shapes: [{ kind: 'freehand', color: 'red' }] }, 'Shape 1: a freehand stroke needs at least one point.'],
    ['an empty label', { shapes: [{ ...text, text: '   ' }] }, 'Shape 1: a text label needs some text.'],
    ['a label that is no string', { shapes: [{ ...text, text: 42 }] }, 'Shape 1: a text label needs some text.'],
    ['a label over 200 characters', { shapes: [{ ...text, text: 'x'.repeat(201) }] }, 'Shape 1: a text label can be at most 200 characters.'],
  ])('refuses %s', (_, input, expected) => {
    expect(message(input)).toBe(expected);
  });

  it('refuses holes in sparse arrays instead of skipping them', () => {
    const points = [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ];
    delete points[0];
    expect(message({ shapes: [freehand(points)] })).toBe('Shape 1 point 1 must be a point { x, y }.');
    const shapes = [arrow, arrow, arrow];
    delete shapes[1];
    expect(message({ shapes })).toBe('Shape 2 must be an object.');
  });

  it('counts a label’s characters, not UTF-16 units', () => {
    expect(validateDrawing({ shapes: [{ ...text, text: '🎬'.repeat(200) }] }).ok).toBe(true);
  });

  it('refuses text PostgreSQL cannot store', () => {
    expect(message({ shapes: [{ ...text, text: 'a\u0000b' }] })).toMatch(/^Shape 1: Text cannot contain the NUL character/);
  });
});

describe('scaleShape', () => {
  const shapes = validateDrawing({
    shapes: [
      freehand([
        { x: 0.5, y: 0.5 },
        { x: 1, y: 0 },
      ]),
      arrow,
      rectangle,
      text,
    ],
  });
  if (!shapes.ok) throw new Error(shapes.message);
  const [f, a, r, t] = shapes.drawing.shapes as [Shape, Shape, Shape, Shape];

  it('multiplies x by the width and y by the height', () => {
    expect(scaleShape(f, 1920, 1080)).toEqual({
      kind: 'freehand',
      color: 'red',
      points: [
        { x: 960, y: 540 },
        { x: 1920, y: 0 },
      ],
    });
    expect(scaleShape(a, 200, 100)).toEqual({ kind: 'arrow', color: 'yellow', from: { x: 20, y: 20 }, to: { x: 100, y: 60 } });
    expect(scaleShape(r, 640, 360)).toEqual({ kind: 'rectangle', color: 'blue', x: 160, y: 90, width: 320, height: 270 });
    expect(scaleShape(t, 1000, 500)).toEqual({ kind: 'text', color: 'white', at: { x: 500, y: 450 }, text: 'Logo too small' });
  });

  it('leaves the shape itself alone', () => {
    scaleShape(f, 10, 10);
    expect(f).toEqual({
      kind: 'freehand',
      color: 'red',
      points: [
        { x: 0.5, y: 0.5 },
        { x: 1, y: 0 },
      ],
    });
  });

  it('throws on a size no player has', () => {
    for (const [w, h] of [
      [0, 100],
      [100, -1],
      [Number.NaN, 100],
      [100, Number.POSITIVE_INFINITY],
    ] as const)
      expect(() => scaleShape(a, w, h)).toThrow(RangeError);
  });
});
