import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { FINAL_VIDEO_LENGTHS } from '@/domain/constants.ts';
import { FIELD_MESSAGES, audienceRule, collectErrors, projectNameRule, requiredRule } from '@/domain/validation.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { useMutation, useQueryClient } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Button } from '@/ui/button.tsx';
import { SelectField, TextAreaField } from '@/ui/choice-fields.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { createProject } from './api/create-project.ts';
import { pathTo } from '@/domain/pages.ts';

type Field = 'name' | 'audience' | 'goal' | 'finalVideoLength' | 'brief';
const STEP_FIELDS: Field[][] = [['name'], ['audience', 'goal', 'finalVideoLength'], ['brief']];
const STEP_NAMES = ['Name', 'Audience & goal', 'Brief'];

const validate = (v: Record<Field, string>) =>
  collectErrors({
    name: projectNameRule(v.name),
    audience: audienceRule(v.audience),
    goal: requiredRule()(v.goal),
    finalVideoLength: v.finalVideoLength ? undefined : FIELD_MESSAGES.required,
    brief: requiredRule()(v.brief),
  });

/**
 * The half-filled wizard is kept in this tab's sessionStorage (per user), so a trip to the
 * narrow-window notice, a reload or a back-and-forth does not throw it away; it is dropped when
 * the project is created or the wizard is cancelled.
 */
const draftKey = (userId: number | undefined) => `cutdesk.create-project-draft.${userId ?? 0}`;
interface Draft {
  step: number;
  values: Record<Field, string>;
}
const EMPTY: Record<Field, string> = { name: '', audience: '', goal: '', finalVideoLength: '', brief: '' };

function readDraft(userId: number | undefined): Draft | null {
  try {
    const raw = sessionStorage.getItem(draftKey(userId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<Draft>;
    const step = typeof draft.step === 'number' && draft.step >= 0 && draft.step <= 2 ? draft.step : 0;
    const values = { ...EMPTY };
    for (const key of Object.keys(EMPTY) as Field[]) if (typeof draft.values?.[key] === 'string') values[key] = draft.values[key];
    return { step, values };
  } catch {
    return null;
  }
}

function writeDraft(userId: number | undefined, draft: Draft | null): void {
  try {
    if (draft) sessionStorage.setItem(draftKey(userId), JSON.stringify(draft));
    else sessionStorage.removeItem(draftKey(userId));
  } catch {
    // Storage full or blocked: the wizard still works, it just is not kept.
  }
}

/** Each element of a step appears in turn, 0.4 s to 1.5 s after the step opens (C§2). */
const delay = (index: number) => ({ animationDelay: `${Math.min(0.4 + index * 0.35, 1.5)}s` });

/** /user/create-project: three steps; the last creates the project and opens it. */
export function CreateProjectPage() {
  const me = useAtomValue(meAtom);
  const [, navigate] = useLocation();
  const [draft] = useState(() => readDraft(me?.id));
  const [step, setStep] = useState(draft?.step ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Field>(draft?.values ?? EMPTY, useCallback(validate, []));
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Record<Field, string>) => createProject(me!.organizationId!, body),
    // The board (and the top bar's figures) count the new project, even if read seconds ago.
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.organization(me!.organizationId!) }),
  });
  const { values } = form;
  const started = Object.values(values).some(Boolean);
  useEffect(() => writeDraft(me?.id, started || step > 0 ? { step, values } : null), [me?.id, step, values, started]);
  const cancel = () => {
    writeDraft(me?.id, null);
    navigate(pathTo('projects'));
  };

  const stepValid = () => {
    STEP_FIELDS[step]!.forEach((f) => form.blur(f));
    return STEP_FIELDS[step]!.every((f) => !validate(form.values)[f]);
  };

  const next = async () => {
    if (!stepValid()) return;
    if (step < 2) return setStep(step + 1);
    setBusy(true);
    setError(null);
    try {
      const { id } = await create.mutateAsync(form.values);
      writeDraft(me?.id, null);
      navigate(pathTo('project', { id: id }));
    } catch (e) {
      const fields = fieldErrors<Field>(e);
      if (fields) form.setServerErrors(fields);
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="wizard">
      <div className="wizard-card">
        <div className="wizard-steps" aria-label={`Step ${step + 1} of 3`}>
          {STEP_NAMES.map((name, index) => (
            <span key={name} className={`wizard-step ${index < step ? 'done' : index === step ? 'current' : ''}`}>
              {index + 1}. {name}
            </span>
          ))}
        </div>
        <form
          key={step}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void next();
          }}
        >
          {step === 0 && (
            <>
              <h1 className="wizard-title reveal" style={delay(0)}>
                What is the video called?
              </h1>
              <p className="wizard-lead reveal" style={delay(1)}>
                A short working title. You can change it later.
              </p>
              <div className="reveal" style={delay(2)}>
                <TextField label="Project name" autoFocus maxLength={60} {...form.field('name')} hint={`${form.values.name.length}/43`} />
              </div>
            </>
          )}
          {step === 1 && (
            <>
              <h1 className="wizard-title reveal" style={delay(0)}>
                Who is it for, and why?
              </h1>
              <p className="wizard-lead reveal" style={delay(1)}>
                This helps the editor pick the pace, music and tone.
              </p>
              <div className="reveal" style={delay(2)}>
                <TextField label="Audience" autoFocus {...form.field('audience')} />
              </div>
              <div className="reveal" style={delay(3)}>
                <TextField label="Goal" {...form.field('goal')} />
              </div>
              <div className="reveal" style={delay(4)}>
                <SelectField label="Length" options={FINAL_VIDEO_LENGTHS} placeholder="Choose a length" {...form.field('finalVideoLength')} />
              </div>
            </>
          )}
          {step === 2 && (
            <>
              <h1 className="wizard-title reveal" style={delay(0)}>
                Tell us the story
              </h1>
              <p className="wizard-lead reveal" style={delay(1)}>
                Key messages, must-have shots, references, anything the editor should know.
              </p>
              <div className="reveal" style={delay(2)}>
                <TextAreaField label="Brief" rows={8} {...form.field('brief')} />
              </div>
            </>
          )}
          {error && <div className="form-error">{error}</div>}
          <div className="wizard-actions">
            <Button variant="ghost" onClick={() => (step === 0 ? cancel() : setStep(step - 1))}>
              {step === 0 ? 'Cancel' : 'Back'}
            </Button>
            <div style={{ display: 'flex', gap: 10 }}>
              {step > 0 && (
                <Button variant="secondary" onClick={cancel}>
                  Cancel
                </Button>
              )}
              <Button type="submit" variant="success" busy={busy}>
                {step < 2 ? 'Next' : 'Create project'}
              </Button>
            </div>
          </div>
        </form>
      </div>
    </div>
  );
}
