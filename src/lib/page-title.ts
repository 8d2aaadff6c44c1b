import { atom } from 'jotai';

/** A page's title shown in the customer top bar, editable in place when `onSubmit` is set (C§2). */
export interface PageTitle {
  title: string;
  /** Returns nothing on success (editing ends) or an error text (shown; editing stays open). */
  onSubmit?: (value: string) => Promise<string | undefined>;
  validate?: (value: string) => string | undefined;
}

export const pageTitleAtom = atom<PageTitle | null>(null);
