import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A list that puts only the rows in view (and a few around them) in the page once it is long:
 * a camera card queues hundreds of files (issue 35), and every progress update would otherwise
 * lay out and paint every row. Rows are `rowHeight` pixels tall (the list's CSS fixes it); the
 * rows out of view are stood for by two spacers, so its scroll height and bar stay true (not by
 * the list's padding: a flex item cannot shrink below its padding, and the list would not scroll).
 * Up to `windowFrom` rows the list is whole, as any short list.
 */
export function WindowedList<T>({
  items,
  rowHeight,
  windowFrom = 40,
  overscan = 6,
  className,
  label,
  renderRow,
}: {
  items: readonly T[];
  rowHeight: number;
  windowFrom?: number;
  overscan?: number;
  className: string;
  label?: string;
  renderRow: (item: T, index: number) => ReactNode;
}) {
  const list = useRef<HTMLUListElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(rowHeight * 10);
  const windowed = items.length > windowFrom;
  useLayoutEffect(() => {
    const element = list.current;
    if (!element || !windowed) return;
    setViewHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setViewHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [windowed]);
  if (!windowed)
    return (
      <ul ref={list} className={className} aria-label={label}>
        {items.map(renderRow)}
      </ul>
    );
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan);
  return (
    <ul ref={list} className={`${className} is-windowed`} aria-label={label} onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
      <li className="windowed-list-spacer" role="presentation" style={{ height: first * rowHeight }} />
      {items.slice(first, last).map((item, offset) => renderRow(item, first + offset))}
      <li className="windowed-list-spacer" role="presentation" style={{ height: (items.length - last) * rowHeight }} />
    </ul>
  );
}
