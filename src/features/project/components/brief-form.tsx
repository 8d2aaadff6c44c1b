import { useCallback, useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { FINAL_VIDEO_LENGTHS } from '@/domain/constants.ts';
import { FIELD_MESSAGES, audienceRule, collectErrors, requiredRule } from '@/domain/validation.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { SelectField, TextAreaField } from '@/ui/choice-fields.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { updateProject } from '@/shared/project/api/update-project.ts';

type Field = 'audience' | 'goal' | 'finalVideoLength' | 'brief';

/** The brief's rules on the project page use the generic required label (C§5). */
export const validateBrief = (v: Record<Field, string>) =>
  collectErrors({
    audience: audienceRule(v.audience),
    goal: requiredRule()(v.goal),
    finalVideoLength: (FINAL_VIDEO_LENGTHS as readonly string[]).includes(v.finalVideoLength) ? undefined : FIELD_MESSAGES.required,
    brief: requiredRule()(v.brief),
  });

/** Collapsible brief: expanded and editable only while OPENED (C§4). */
export function BriefForm({ project, onSaved }: { project: Project; onSaved: (p: Project) => void }) {
  const editable = project.status.name === 'OPENED';
  const [open, setOpen] = useState(editable);
  const form = useForm<Field>({ audience: project.audience, goal: project.goal, finalVideoLength: project.finalVideoLength, brief: project.brief }, useCallback(validateBrief, []));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const dirty = (['audience', 'goal', 'finalVideoLength', 'brief'] as const).some((k) => form.values[k] !== project[k]);

  const save = async () => {
    if (!form.checkAll()) return;
    setBusy(true);
    setMessage(null);
    try {
      onSaved(await updateProject(project.id, form.values));
      setMessage({ ok: true, text: 'Brief saved.' });
    } catch (e) {
      form.setServerErrors(fieldErrors<Field>(e) ?? {});
      setMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card panel" aria-label="Brief">
      <button type="button" className="panel-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <h2>Brief</h2>
        <span className="panel-toggle-hint">{editable ? 'Editable until you send it to editing' : 'Locked'}</span>
        <span className={`chevron ${open ? 'open' : ''}`} aria-hidden>
          ›
        </span>
      </button>
      {open && (
        <form
          className="panel-body"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="form-row">
            <TextField label="Audience" disabled={!editable} {...form.field('audience')} />
            <TextField label="Goal" disabled={!editable} {...form.field('goal')} />
          </div>
          <SelectField label="Length" options={FINAL_VIDEO_LENGTHS} disabled={!editable} {...form.field('finalVideoLength')} />
          <TextAreaField label="Brief" rows={6} disabled={!editable} {...form.field('brief')} />
          {editable && (
            <div className="panel-actions">
              {message && <span className={message.ok ? 'saved-note' : 'field-error'}>{message.text}</span>}
              <Button type="submit" variant="primary" busy={busy} disabled={!dirty}>
                Save brief
              </Button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
