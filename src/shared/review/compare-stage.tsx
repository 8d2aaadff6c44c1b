import { useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { wipeAt, wipeClip, wipeKey } from './compare-logic.ts';

export type CompareMode = 'side' | 'wipe';

interface Props {
  mode: CompareMode;
  /** Share of the width (0..1) where B stops and A shows, in wipe mode. */
  position: number;
  onPosition: (position: number) => void;
  a: ReactNode;
  b: ReactNode;
  labels: { a: string; b: string };
}

/**
 * The two videos of a compare, side by side or stacked for the wipe. The same two layers in both
 * modes (only CSS moves them), so switching mode never reloads a video or loses its position. In
 * the wipe, B is clipped to the left of a handle that a pointer drags (anywhere on the picture)
 * and the keyboard moves (role="slider": arrows, Shift+arrows, Page keys, Home/End).
 */
export function CompareStage({ mode, position, onPosition, a, b, labels }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const wipe = mode === 'wipe';
  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const rect = box.current?.getBoundingClientRect();
    if (rect) onPosition(wipeAt(event.clientX, rect.left, rect.width));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = wipeKey(event.key, event.shiftKey, position);
    if (next === null) return;
    event.preventDefault();
    // The compare's own keys (←/→ step a frame) must not hear what moves the wipe.
    event.stopPropagation();
    onPosition(next);
  };
  const percent = Math.round(position * 100);
  return (
    <div
      className={`compare-stage compare-${mode}`}
      ref={box}
      data-testid="compare-stage"
      {...(wipe && {
        onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          moveTo(event);
        },
        onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event);
        },
      })}
    >
      <div className="compare-layer compare-layer-a">
        {a}
        <span className="compare-tag">{labels.a}</span>
      </div>
      <div className="compare-layer compare-layer-b" style={wipe ? { clipPath: wipeClip(position) } : undefined}>
        {b}
        <span className="compare-tag">{labels.b}</span>
      </div>
      {wipe && (
        <div
          className="compare-wipe-handle"
          style={{ left: `${position * 100}%` }}
          role="slider"
          tabIndex={0}
          aria-label="Wipe position"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${labels.b} on the left ${percent}%`}
          onKeyDown={onKeyDown}
        >
          <span className="compare-wipe-knob" aria-hidden>
            ◂▸
          </span>
        </div>
      )}
    </div>
  );
}
