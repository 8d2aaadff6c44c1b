import type { CSSProperties } from 'react';
import { DRAWING_COLORS, DRAWING_PALETTE, type ShapeKind } from '@/domain/drawing.ts';
import type { ReviewState } from './review-context.tsx';

const TOOLS: readonly { kind: ShapeKind; label: string; icon: string }[] = [
  { kind: 'arrow', label: 'Arrow', icon: '↗' },
  { kind: 'rectangle', label: 'Rectangle', icon: '▭' },
  { kind: 'freehand', label: 'Freehand', icon: '✎' },
  { kind: 'text', label: 'Text', icon: 'T' },
];

/**
 * The drawing toolbar: tools, palette, undo and clear, for the drawing of the next comment. It sits
 * on the picture (review-overlay.tsx), so tools and canvas are in view together on every layout
 * (on the staff page the comment box is under the player).
 */
export function DrawingToolbar({ review, style }: { review: ReviewState; style?: CSSProperties }) {
  const shapes = review.draft ?? [];
  return (
    <div className="drawing-toolbar" role="toolbar" aria-label="Drawing tools" style={style}>
      {TOOLS.map((t) => (
        <button
          key={t.kind}
          type="button"
          className={`tool${review.tool === t.kind ? ' active' : ''}`}
          aria-pressed={review.tool === t.kind}
          title={t.label}
          aria-label={t.label}
          onClick={() => review.setTool(t.kind)}
        >
          {t.icon}
        </button>
      ))}
      <span className="toolbar-sep" />
      {DRAWING_COLORS.map((c) => (
        <button
          key={c}
          type="button"
          className={`swatch${review.color === c ? ' active' : ''}`}
          style={{ background: DRAWING_PALETTE[c] }}
          aria-pressed={review.color === c}
          aria-label={`Colour ${c}`}
          title={c}
          onClick={() => review.setColor(c)}
        />
      ))}
      <span className="toolbar-sep" />
      <button
        type="button"
        className="tool"
        disabled={shapes.length === 0}
        title="Undo"
        aria-label="Undo the last shape"
        onClick={() => review.setDraft(shapes.slice(0, -1))}
      >
        ↶
      </button>
      <button type="button" className="tool" title="Stop drawing" aria-label="Remove the drawing" onClick={() => review.setDraft(null)}>
        ✕
      </button>
    </div>
  );
}
