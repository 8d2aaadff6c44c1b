import type { ReactNode } from 'react';
import { EmptyState, PageHeader } from './empty-state.tsx';
import type { IconName } from './icons.tsx';

/** An honest empty page for an area whose issue has not landed yet. */
export function PlaceholderPage({ title, subtitle, emptyTitle, icon, children }: { title: string; subtitle: string; emptyTitle: string; icon: IconName; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <EmptyState title={emptyTitle} icon={icon}>
        {children}
      </EmptyState>
    </>
  );
}
