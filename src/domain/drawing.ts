import { storableTextRule } from './validation.ts';

/**
 * Drawings on a frame (frame-accurate review): a reviewer circles, points at or writes on the
 * picture. Stored as vector data, not as an image, so the drawing stays sharp at every player
 * size and weighs a few kilobytes. Every coordinate is relative to the frame, 0..1 from the
 * left and from the top, so the same drawing fits the phone player, the desktop player and the
 * full-resolution export.
 *
 * validateDrawing is the gate for anything that arrives from outside (the request body, a
 * stored row read back): it refuses, it never clamps or repairs, so what the reviewer drew is
 * either kept exactly or reported as an error.
 */

/** The named colours a shape may take, with the colour each is painted in. */
export const DRAWING_PALETTE = {
  red: '#ff3b30',
  orange: '#ff9500',
  yellow: '#ffcc00',
  green: '#34c759',
  blue: '#0a84ff',
  white: '#ffffff',
} as const;
export type DrawingColor = keyof typeof DRAWING_PALETTE;
export const DRAWING_COLORS = Object.keys(DRAWING_PALETTE) as readonly DrawingColor[];

export const DRAWING_LIMITS = {
  /** Shapes in one drawing. */
  shapes: 50,
  /** Points of all freehand strokes together (a few seconds of a busy scribble). */
  points: 2000,
  /** Characters of a text label. */
  text: 200,
} as const;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export type Shape =
  | { readonly kind: 'freehand'; readonly color: DrawingColor; readonly points: readonly Point[] }
  | { readonly kind: 'arrow'; readonly color: DrawingColor; readonly from: Point; readonly to: Point }
  | { readonly kind: 'rectangle'; readonly color: DrawingColor; readonly x: number; readonly y: number; readonly width: number; readonly height: number }
  | { readonly kind: 'text'; readonly color: DrawingColor; readonly at: Point; readonly text: string };
export type ShapeKind = Shape['kind'];

export interface Drawing {
  readonly shapes: readonly Shape[];
}

export type DrawingResult = { ok: true; drawing: Drawing } | { ok: false; message: string };

/**
 * x + width of a rectangle drawn to the frame's edge can exceed 1 by a rounding error when both
 * were computed from pixels (as 0.1 + 0.2 is 0.30000000000000004): accepted up to this much.
 */
const EDGE_TOLERANCE = 1e-9;

const KEYS: Record<ShapeKind, readonly string[]> = {
  freehand: ['kind', 'color', 'points'],
  arrow: ['kind', 'color', 'from', 'to'],
  rectangle: ['kind', 'color', 'x', 'y', 'width', 'height'],
  text: ['kind', 'color', 'at', 'text'],
};

class Refusal {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function refuse(message: string): never {
  throw new Refusal(message);
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) refuse(`${where} has an unknown field "${key}".`);
}

/** A coordinate or size: a finite number in [0, 1]. */
function unit(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(`${where} must be a finite number.`);
  if (value < 0 || value > 1) refuse(`${where} must be between 0 and 1 (relative to the frame), got ${value}.`);
  return value;
}

function point(value: unknown, where: string): Point {
  if (!isRecord(value)) refuse(`${where} must be a point { x, y }.`);
  onlyKeys(value, ['x', 'y'], where);
  return { x: unit(value.x, `${where}.x`), y: unit(value.y, `${where}.y`) };
}

function color(value: unknown, where: string): DrawingColor {
  if (typeof value !== 'string' || !Object.hasOwn(DRAWING_PALETTE, value)) refuse(`${where}: the colour must be one of ${DRAWING_COLORS.join(', ')}.`);
  return value as DrawingColor;
}

function shape(value: unknown, where: string, pointsLeft: number): Shape {
  if (!isRecord(value)) refuse(`${where} must be an object.`);
  const kind = value.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(KEYS, kind)) refuse(`${where}: the kind must be freehand, arrow, rectangle or text.`);
  onlyKeys(value, KEYS[kind as ShapeKind], where);
  const c = color(value.color, where);
  switch (kind as ShapeKind) {
    case 'freehand': {
      const points = value.points;
      if (!Array.isArray(points) || points.length === 0) refuse(`${where}: a freehand stroke needs at least one point.`);
      if (points.length > pointsLeft) refuse(`A drawing can have at most ${DRAWING_LIMITS.points} points in all.`);
      // Array.from visits holes too (map skips them), so a sparse array is refused, not kept.
      return { kind: 'freehand', color: c, points: Array.from(points, (p, i) => point(p, `${where} point ${i + 1}`)) };
    }
    case 'arrow':
      return { kind: 'arrow', color: c, from: point(value.from, `${where} start`), to: point(value.to, `${where} end`) };
    case 'rectangle': {
      const x = unit(value.x, `${where} x`);
      const y = unit(value.y, `${where} y`);
      const width = unit(value.width, `${where} width`);
      const height = unit(value.height, `${where} height`);
      if (x + width > 1 + EDGE_TOLERANCE || y + height > 1 + EDGE_TOLERANCE) refuse(`${where}: the rectangle must lie inside the frame.`);
      return { kind: 'rectangle', color: c, x, y, width, height };
    }
    case 'text': {
      const text = value.text;
      if (typeof text !== 'string' || !text.trim()) refuse(`${where}: a text label needs some text.`);
      if ([...text].length > DRAWING_LIMITS.text) refuse(`${where}: a text label can be at most ${DRAWING_LIMITS.text} characters.`);
      const problem = storableTextRule(text);
      if (problem) refuse(`${where}: ${problem}`);
      return { kind: 'text', color: c, at: point(value.at, `${where} position`), text };
    }
  }
}

/**
 * Checks a drawing from outside: `{ shapes: [...] }` with at most DRAWING_LIMITS.shapes shapes and
 * DRAWING_LIMITS.points freehand points in all, known kinds and palette colours, every number
 * finite and within the frame, no unknown fields. Returns a fresh, typed copy, or the first
 * problem as a message a person can read (shapes are numbered from 1).
 */
export function validateDrawing(input: unknown): DrawingResult {
  try {
    if (!isRecord(input)) refuse('A drawing must be an object with a list of shapes.');
    onlyKeys(input, ['shapes'], 'The drawing');
    const shapes = input.shapes;
    if (!Array.isArray(shapes)) refuse('A drawing must have a list of shapes.');
    if (shapes.length > DRAWING_LIMITS.shapes) refuse(`A drawing can have at most ${DRAWING_LIMITS.shapes} shapes.`);
    let pointsLeft: number = DRAWING_LIMITS.points;
    const result: Shape[] = [];
    for (let i = 0; i < shapes.length; i++) {
      const checked = shape(shapes[i], `Shape ${i + 1}`, pointsLeft);
      if (checked.kind === 'freehand') pointsLeft -= checked.points.length;
      result.push(checked);
    }
    return { ok: true, drawing: { shapes: result } };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * A shape in pixels of a player `width` × `height` pixels (relative coordinates times the
 * player's size), for a canvas or an SVG overlay. Text is unchanged: its size is the
 * renderer's choice. Throws on a non-positive or non-finite size (a programming error).
 */
export function scaleShape(shape: Shape, width: number, height: number): Shape {
  if (!(Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0))
    throw new RangeError(`A player size is positive and finite, got ${width}×${height}`);
  const at = (p: Point): Point => ({ x: p.x * width, y: p.y * height });
  switch (shape.kind) {
    case 'freehand':
      return { ...shape, points: shape.points.map(at) };
    case 'arrow':
      return { ...shape, from: at(shape.from), to: at(shape.to) };
    case 'rectangle':
      return { ...shape, x: shape.x * width, y: shape.y * height, width: shape.width * width, height: shape.height * height };
    case 'text':
      return { ...shape, at: at(shape.at) };
  }
}
