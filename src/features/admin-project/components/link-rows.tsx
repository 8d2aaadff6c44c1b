import { useState } from 'react';
import type { LinkField, Project } from '@/domain/contract/projects.ts';
import { decideLinkEdit } from '@/domain/project-rules.ts';
import type { RoleName } from '@/domain/roles.ts';
import { projectLinkRule } from '@/domain/validation.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { EditableField } from '@/ui/editable-field.tsx';
import { updateProject } from '@/shared/project/api/update-project.ts';

const ROWS: { field: LinkField; label: string }[] = [
  { field: 'assetsLink', label: 'Organization assets' },
  { field: 'reviewLink', label: 'Feedback' },
  { field: 'collaborationLink', label: 'Collaboration' },
  { field: 'editorAssetsLink', label: 'Editor files' },
];

/**
 * The four link rows of A§2, each with copy (1 s confirmation) and open in a new tab; a row
 * `role` may not edit (src/domain/project-rules.ts `decideLinkEdit`) is disabled with the reason.
 */
export function LinkRows({ project, role, onSaved }: { project: Project; role: RoleName; onSaved: (p: Project) => void }) {
  const [copied, setCopied] = useState<LinkField | null>(null);
  const copy = async (field: LinkField, value: string) => {
    await navigator.clipboard.writeText(value).catch(() => undefined);
    setCopied(field);
    setTimeout(() => setCopied((c) => (c === field ? null : c)), 1_000);
  };
  return (
    <div className="link-rows">
      {ROWS.map(({ field, label }) => {
        const value = project[field];
        const edit = decideLinkEdit(role, field);
        return (
          <div className="link-row" key={field}>
            <EditableField
              label={label}
              value={value}
              inputMode="url"
              placeholder="https://…"
              minSavingMs={1_000}
              disabled={!edit.allowed}
              disabledHint={edit.allowed ? undefined : edit.message}
              validate={(text) => (text ? projectLinkRule(field)(text) : undefined)}
              onSave={async (text) => {
                try {
                  onSaved(await updateProject(project.id, { [field]: text || null }));
                } catch (e) {
                  return fieldError(e, field);
                }
              }}
            />
            <div className="link-row-actions">
              <button
                type="button"
                className="btn btn-secondary btn-small"
                disabled={!value}
                onClick={() => value && void copy(field, value)}
                aria-label={`Copy ${label} link`}
              >
                {copied === field ? 'Copied!' : 'Copy'}
              </button>
              <a
                className={`btn btn-secondary btn-small ${value ? '' : 'is-disabled-link'}`}
                href={value ?? undefined}
                target="_blank"
                rel="noreferrer"
                aria-label={`Open ${label} link`}
                aria-disabled={!value}
              >
                Open
              </a>
            </div>
          </div>
        );
      })}
    </div>
  );
}
