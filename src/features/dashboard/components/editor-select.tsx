import { useState } from 'react';
import { EDITOR_LOCKED_STATUSES } from '@/domain/project-rules.ts';
import type { ProjectStatus } from '@/domain/project-status.ts';
import type { User } from '@/domain/contract/users.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { assignEditor } from '../api/assign-editor.ts';

interface Props {
  projectId: number;
  projectName: string;
  status: ProjectStatus;
  editor: { id: number; firstName: string; lastName: string } | null;
  editors: User[];
  disabled: boolean;
  onAssigned: () => void;
}

/** Per-row editor dropdown; locked for FINISHED, NOT PUBLISHED and DELETED projects (A§2). */
export function EditorSelect({ projectId, projectName, status, editor, editors, disabled, onAssigned }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locked = disabled || EDITOR_LOCKED_STATUSES.includes(status);
  // The assigned editor stays listed even when disabled or not among the enabled editors.
  const options = editor && !editors.some((e) => e.id === editor.id) ? [editor, ...editors] : editors;
  return (
    <div>
      <select
        className="cell-select"
        aria-label={`Editor of ${projectName}`}
        value={editor?.id ?? ''}
        disabled={locked || busy}
        onChange={async (e) => {
          setBusy(true);
          setError(null);
          try {
            await assignEditor(projectId, Number(e.target.value));
            onAssigned();
          } catch (err) {
            setError(errorMessage(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <option value="" disabled>
          No editor
        </option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.firstName} {option.lastName}
          </option>
        ))}
      </select>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
