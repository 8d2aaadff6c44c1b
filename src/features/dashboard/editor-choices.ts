import { compareText } from '@/domain/collation.ts';
import type { User } from '@/domain/contract/users.ts';

export interface EditorChoice {
  id: number;
  name: string;
  email: string | null;
  /**
   * Invited but never accepted (no password yet): listed, marked, and not assignable, since they
   * cannot sign in to work on the project (issue 12).
   */
  pending: boolean;
}

type Person = { id: number; firstName: string; lastName: string };

/** Above this many editors the picker opens with a search field. */
export const EDITOR_SEARCH_FROM = 8;

/**
 * The editor picker's entries for `query` (case-insensitive, on name or e-mail): editors who can
 * work first, by name (as people sort them: src/domain/collation.ts), then those who have not
 * accepted their invitation. The assigned editor stays listed even when no longer among the
 * enabled editors.
 */
export function editorChoices(editors: readonly User[], query: string, assigned: Person | null): EditorChoice[] {
  const all: EditorChoice[] = editors.map((e) => ({ id: e.id, name: `${e.firstName} ${e.lastName}`.trim(), email: e.email, pending: !e.hasPassword }));
  if (assigned && !all.some((e) => e.id === assigned.id))
    all.unshift({ id: assigned.id, name: `${assigned.firstName} ${assigned.lastName}`.trim(), email: null, pending: false });
  const needle = query.trim().toLowerCase();
  return all
    .filter((e) => !needle || e.name.toLowerCase().includes(needle) || (e.email?.toLowerCase().includes(needle) ?? false))
    .sort((a, b) => Number(a.pending) - Number(b.pending) || compareText(a.name, b.name));
}
