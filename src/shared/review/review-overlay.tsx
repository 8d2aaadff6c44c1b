import { useEffect, useState, type PointerEvent } from 'react';
import { DRAWING_PALETTE, DRAWING_LIMITS, scaleShape, type Point, type Shape } from '@/domain/drawing.ts';
import { DrawingToolbar } from './drawing-toolbar.tsx';
import { isOnComment } from './review-logic.ts';
import { useReview } from './review-context.tsx';

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where the picture is inside the <video> element (object-fit: contain letterboxes it). */
function pictureBox(video: HTMLVideoElement): Box | null {
  const width = video.clientWidth;
  const height = video.clientHeight;
  if (!width || !height) return null;
  const ratio = video.videoWidth && video.videoHeight ? video.videoWidth / video.videoHeight : width / height;
  const fitWidth = Math.min(width, height * ratio);
  const fitHeight = fitWidth / ratio;
  return { left: video.offsetLeft + (width - fitWidth) / 2, top: video.offsetTop + (height - fitHeight) / 2, width: fitWidth, height: fitHeight };
}

function usePictureBox(video: HTMLVideoElement | null): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useEffect(() => {
    if (!video) return;
    const measure = () => setBox(pictureBox(video));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(video);
    video.addEventListener('loadedmetadata', measure);
    return () => {
      observer.disconnect();
      video.removeEventListener('loadedmetadata', measure);
    };
  }, [video]);
  return box;
}

function ShapeView({ shape, box }: { shape: Shape; box: Box }) {
  const s = scaleShape(shape, box.width, box.height);
  const stroke = DRAWING_PALETTE[s.color];
  const common = { stroke, strokeWidth: 3, fill: 'none', strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
  switch (s.kind) {
    case 'rectangle':
      return <rect x={s.x} y={s.y} width={s.width} height={s.height} {...common} />;
    case 'freehand':
      return <polyline points={s.points.map((p) => `${p.x},${p.y}`).join(' ')} {...common} />;
    case 'arrow': {
      const angle = Math.atan2(s.to.y - s.from.y, s.to.x - s.from.x);
      const head = 14;
      const left = { x: s.to.x - head * Math.cos(angle - Math.PI / 7), y: s.to.y - head * Math.sin(angle - Math.PI / 7) };
      const right = { x: s.to.x - head * Math.cos(angle + Math.PI / 7), y: s.to.y - head * Math.sin(angle + Math.PI / 7) };
      return (
        <g>
          <line x1={s.from.x} y1={s.from.y} x2={s.to.x} y2={s.to.y} {...common} />
          <polygon points={`${s.to.x},${s.to.y} ${left.x},${left.y} ${right.x},${right.y}`} fill={stroke} stroke={stroke} strokeWidth={1} />
        </g>
      );
    }
    case 'text':
      return (
        <text x={s.at.x} y={s.at.y} fill={stroke} className="drawing-text">
          {s.text}
        </text>
      );
  }
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** A shape from the pointer's start and end, in frame-relative coordinates. */
function shapeFrom(kind: Shape['kind'], color: Shape['color'], from: Point, to: Point, points: Point[]): Shape | null {
  switch (kind) {
    case 'arrow':
      return Math.hypot(to.x - from.x, to.y - from.y) < 0.01 ? null : { kind, color, from, to };
    case 'rectangle': {
      const x = Math.min(from.x, to.x);
      const y = Math.min(from.y, to.y);
      const width = Math.min(Math.abs(to.x - from.x), 1 - x);
      const height = Math.min(Math.abs(to.y - from.y), 1 - y);
      return width < 0.005 || height < 0.005 ? null : { kind, color, x, y, width, height };
    }
    case 'freehand':
      return points.length > 0 ? { kind, color, points } : null;
    case 'text':
      return null;
  }
}

/**
 * Over the picture: the drawings of the comments the paused playhead is on, and, while a new
 * comment's drawing is made, the surface to draw on (frame-relative coordinates, 0..1).
 */
export function ReviewOverlay() {
  const review = useReview();
  const box = usePictureBox(review?.video ?? null);
  const [pending, setPending] = useState<{ from: Point; to: Point; points: Point[] } | null>(null);
  // The text tool: where the words go, typed in a field on the frame (Enter places them, Esc drops them).
  const [typing, setTyping] = useState<{ at: Point; text: string } | null>(null);
  // A drawing removed (✕) or sent takes its unfinished words with it.
  const drawingNow = review?.draft != null;
  useEffect(() => {
    if (!drawingNow) setTyping(null);
  }, [drawingNow]);
  // While drawing, the whole picture is the canvas: the player's own controls (shown over a paused
  // frame, yet under the drawing surface) step aside until the drawing is sent or removed.
  const playerVideo = review?.video ?? null;
  useEffect(() => {
    if (!playerVideo || !drawingNow) return;
    playerVideo.controls = false;
    return () => {
      playerVideo.controls = true;
    };
  }, [playerVideo, drawingNow]);
  if (!review || !review.inPlayer || !box) return null;
  const drawing = review.draft !== null;
  const shown = drawing
    ? []
    : review.playing
      ? []
      : review.threads.filter((t) => t.drawing && !t.deleted && isOnComment(t, review.frame)).flatMap((t) => (t.drawing as { shapes: Shape[] }).shapes);
  const draft = review.draft ?? [];
  if (!drawing && shown.length === 0) return null;

  const at = (event: PointerEvent<SVGSVGElement>): Point => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: clamp01((event.clientX - rect.left) / rect.width), y: clamp01((event.clientY - rect.top) / rect.height) };
  };
  const totalPoints = draft.reduce((n, s) => n + (s.kind === 'freehand' ? s.points.length : 0), 0);
  const add = (shape: Shape | null) => {
    if (shape && draft.length < DRAWING_LIMITS.shapes) review.setDraft([...draft, shape]);
  };
  const placeTyped = () => {
    const text = typing?.text.trim();
    if (typing && text) add({ kind: 'text', color: review.color, at: typing.at, text: text.slice(0, DRAWING_LIMITS.text) });
    setTyping(null);
  };
  const onDown = (event: PointerEvent<SVGSVGElement>) => {
    const p = at(event);
    if (review.tool === 'text') {
      // A click elsewhere places the words of a field already open, and opens one there (the
      // default is prevented so the new field keeps the focus).
      event.preventDefault();
      placeTyped();
      setTyping({ at: p, text: '' });
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    setPending({ from: p, to: p, points: [p] });
  };
  const onMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!pending) return;
    const p = at(event);
    const last = pending.points.at(-1)!;
    const points =
      review.tool === 'freehand' && Math.hypot(p.x - last.x, p.y - last.y) > 0.004 && totalPoints + pending.points.length < DRAWING_LIMITS.points
        ? [...pending.points, p]
        : pending.points;
    setPending({ ...pending, to: p, points });
  };
  const onUp = () => {
    if (!pending) return;
    add(shapeFrom(review.tool, review.color, pending.from, pending.to, pending.points));
    setPending(null);
  };
  const preview = pending ? shapeFrom(review.tool, review.color, pending.from, pending.to, pending.points) : null;

  return (
    <>
      <svg
        className={`review-overlay${drawing ? ' drawing' : ''}`}
        style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
        viewBox={`0 0 ${box.width} ${box.height}`}
        data-testid="review-overlay"
        onPointerDown={drawing ? onDown : undefined}
        onPointerMove={drawing ? onMove : undefined}
        onPointerUp={drawing ? onUp : undefined}
        onPointerCancel={() => setPending(null)}
      >
        {[...shown, ...draft, ...(preview ? [preview] : [])].map((shape, index) => (
          <ShapeView key={index} shape={shape} box={box} />
        ))}
      </svg>
      {drawing && <DrawingToolbar review={review} style={{ left: box.left + 8, top: box.top + 8 }} />}
      {drawing && typing && (
        <input
          key={`${typing.at.x},${typing.at.y}`}
          className="drawing-text-input"
          type="text"
          aria-label="Text on the frame"
          placeholder="Type, then Enter"
          maxLength={DRAWING_LIMITS.text}
          autoFocus
          value={typing.text}
          style={{ left: box.left + typing.at.x * box.width, top: box.top + typing.at.y * box.height, color: DRAWING_PALETTE[review.color] }}
          onChange={(event) => setTyping({ ...typing, text: event.target.value })}
          onKeyDown={(event) => {
            // The player's keys (Space, J/K/L, arrows) stay out of the field.
            event.stopPropagation();
            if (event.key === 'Enter') {
              event.preventDefault();
              placeTyped();
            } else if (event.key === 'Escape') {
              event.preventDefault();
              setTyping(null);
            }
          }}
          onBlur={placeTyped}
        />
      )}
    </>
  );
}
