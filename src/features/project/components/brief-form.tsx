import { useCallback, useImperativeHandle, useState, type Ref } from 'react';
import { CREDIT_MESSAGES } from '@/domain/messages.ts';
import type { Project } from '@/domain/contract/projects.ts';
import { FINAL_VIDEO_LENGTHS } from '@/domain/constants.ts';
import { FIELD_MESSAGES, audienceRule, collectErrors, requiredRule } from '@/domain/validation.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { SelectField, TextAreaField } from '@/ui/choice-fields.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { updateProject } from '@/shared/project/api/update-project.ts';

type Field = 'audience' | 'goal' | 'finalVideoLength' | 'brief';

/** The brief's rules on the project page use the generic required label (C§5). */
const validateBrief = (v: Record<Field, string>) =>
  collectErrors({
    audience: audienceRule(v.audience),
    goal: requiredRule()(v.goal),
    finalVideoLength: (FINAL_VIDEO_LENGTHS as readonly string[]).includes(v.finalVideoLength) ? undefined : FIELD_MESSAGES.required,
    brief: requiredRule()(v.brief),
  });

/** What "Send to editing" asks of the brief before it confirms. */
export interface BriefHandle {
  /**
   * Checks every field (showing the errors, opening the panel) and saves edits not saved yet.
   * Null when the project may be sent, else why not.
   */
  prepareForSending: () => Promise<string | null>;
}

/** Collapsible brief: expanded and editable only while OPENED (C§4). */
export function BriefForm({ project, onSaved, ref }: { project: Project; onSaved: (p: Project) => void; ref?: Ref<BriefHandle> }) {
  const editable = project.status.name === 'OPENED';
  const [open, setOpen] = useState(editable);
  const form = useForm<Field>(
    { audience: project.audience, goal: project.goal, finalVideoLength: project.finalVideoLength, brief: project.brief },
    useCallback(validateBrief, []),
  );
  const [busy, setBusy] = useState(false);
  const offline = useOffline();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const dirty = (['audience', 'goal', 'finalVideoLength', 'brief'] as const).some((k) => form.values[k] !== project[k]);

  /** Saves the brief; null when saved, else the reason shown. */
  const save = async (): Promise<string | null> => {
    if (!form.checkAll()) {
      setOpen(true);
      return CREDIT_MESSAGES.briefIncomplete;
    }
    setBusy(true);
    setMessage(null);
    try {
      onSaved(await updateProject(project.id, form.values));
      setMessage({ ok: true, text: 'Brief saved.' });
      return null;
    } catch (e) {
      form.setServerErrors(fieldErrors<Field>(e) ?? {});
      const text = errorMessage(e);
      setMessage({ ok: false, text });
      setOpen(true);
      return text;
    } finally {
      setBusy(false);
    }
  };

  // Send to editing never sends a brief other than the one on screen: invalid fields stop it
  // (shown under the fields), edits not saved yet are saved first.
  useImperativeHandle(ref, () => ({
    prepareForSending: async () => {
      if (!form.checkAll()) {
        setOpen(true);
        return CREDIT_MESSAGES.briefIncomplete;
      }
      return dirty ? save() : null;
    },
  }));

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
              <Button type="submit" variant="primary" busy={busy} {...needsConnection(offline, !dirty)}>
                Save brief
              </Button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
