/**
 * The filled part of a progress bar: a full-width bar slid left by what is still to do. It
 * changes by a transform alone and has no transition, so a progress update costs one small
 * repaint — no layout, and no animation frames between updates (issue 14: a width transition
 * here redrew the page sixty times a second for as long as an upload ran).
 */
export function ProgressFill({ percent, className = '' }: { percent: number; className?: string }) {
  const done = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  return <span className={`progress-fill ${className}`} style={{ transform: `translateX(${done - 100}%)` }} />;
}
