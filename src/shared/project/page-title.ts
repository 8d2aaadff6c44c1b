import { atom } from '@/lib/state.ts';
import type { PageTitle } from '@/ui/inline-title.tsx';

/** The title of the page shown in the top bar (customer) or the staff header, set by project pages (C§2). */
export const pageTitleAtom = atom<PageTitle | null>(null);
