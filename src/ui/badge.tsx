import type { ReactNode } from 'react';

export type BadgeTone = 'success' | 'neutral' | 'warning' | 'danger' | 'info';

/** A small status pill (ACTIVE, INACTIVE, Invite pending…). */
export function Badge({ tone = 'neutral', children, title }: { tone?: BadgeTone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
