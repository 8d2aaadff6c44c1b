import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { EDITOR_LOCKED_STATUSES, EDITOR_REMOVABLE_STATUSES } from '@/domain/project-rules.ts';
import type { ProjectStatus } from '@/domain/project-status.ts';
import type { User } from '@/domain/contract/users.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useMutation } from '@/lib/query.ts';
import { assignEditor, unassignEditor } from '../api/assign-editor.ts';
import { EDITOR_SEARCH_FROM, editorChoices } from '../editor-choices.ts';
import { useProjectChanged } from '../use-dashboard-queries.ts';

interface Props {
  projectId: number;
  projectName: string;
  status: ProjectStatus;
  editor: { id: number; firstName: string; lastName: string } | null;
  editors: User[];
  disabled: boolean;
}

/**
 * Per-row editor picker; locked for FINISHED, NOT PUBLISHED and DELETED projects (A§2). With
 * many editors it opens with a search field; editors who never accepted their invitation are
 * marked and cannot be chosen (issue 12).
 */
export function EditorSelect({ projectId, projectName, status, editor, editors, disabled }: Props) {
  const changed = useProjectChanged();
  const assign = useMutation({ mutationFn: (editorId: number) => assignEditor(projectId, editorId), onSuccess: changed });
  const unassign = useMutation({ mutationFn: () => unassignEditor(projectId), onSuccess: changed });
  const busy = assign.isPending || unassign.isPending;
  const failure = assign.error ?? unassign.error;
  const error = failure ? errorMessage(failure) : null;
  // The server's rule (src/domain/project-rules.ts): only while the project is being edited.
  const canUnassign = Boolean(editor) && EDITOR_REMOVABLE_STATUSES.includes(status);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const listId = useId();
  const locked = disabled || EDITOR_LOCKED_STATUSES.includes(status);
  const choices = editorChoices(editors, query, editor);
  const pickable = choices.filter((c) => !c.pending);
  const withSearch = editors.length >= EDITOR_SEARCH_FROM;
  const current = editor ? `${editor.firstName} ${editor.lastName}`.trim() : 'No editor';

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    search.current?.focus();
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const choose = (id: number) => {
    setOpen(false);
    setQuery('');
    if (id === editor?.id) return;
    assign.mutate(id);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      setActive((i) => Math.max(0, Math.min(pickable.length - 1, i + (event.key === 'ArrowDown' ? 1 : -1))));
    } else if (event.key === 'Enter' && open && pickable[active]) {
      event.preventDefault();
      choose(pickable[active].id);
    }
  };

  return (
    <div className="editor-picker" ref={root} onKeyDown={onKeyDown}>
      <button
        type="button"
        role="combobox"
        className="cell-select editor-picker-trigger"
        aria-label={`Editor of ${projectName}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        disabled={locked || busy}
        title={current}
        onClick={() => {
          setActive(0);
          setOpen(!open);
        }}
      >
        <span className={editor ? 'editor-picker-name' : 'editor-picker-name is-empty'}>{current}</span>
        <span className="editor-picker-caret" aria-hidden>
          ▾
        </span>
      </button>
      {open && (
        <div className="editor-picker-pop">
          {withSearch && (
            <input
              ref={search}
              type="search"
              className="editor-picker-search"
              placeholder={`Search ${editors.length} editors`}
              aria-label="Search editors"
              aria-controls={listId}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
            />
          )}
          <ul className="editor-picker-list" role="listbox" id={listId} aria-label={`Editors for ${projectName}`}>
            {canUnassign && !query && (
              <li
                role="option"
                aria-selected={false}
                className="editor-picker-option is-unassign"
                title="Take the editor off: the project waits for the next one"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setOpen(false);
                  unassign.mutate();
                }}
              >
                <span>No editor</span>
                <span className="editor-picker-note">Unassign</span>
              </li>
            )}
            {choices.length === 0 && <li className="editor-picker-none">No editor matches “{query}”.</li>}
            {choices.map((choice) => (
              <li
                key={choice.id}
                role="option"
                aria-selected={choice.id === editor?.id}
                aria-disabled={choice.pending || undefined}
                className={['editor-picker-option', choice.pending && 'is-pending', !choice.pending && pickable[active]?.id === choice.id && 'is-active']
                  .filter(Boolean)
                  .join(' ')}
                title={choice.pending ? `${choice.name} has not accepted the invitation yet and cannot sign in.` : (choice.email ?? undefined)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => !choice.pending && choose(choice.id)}
              >
                <span>{choice.name}</span>
                {choice.pending && <span className="editor-picker-note">Invite not accepted</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
