import { useEffect, useId, useState } from 'react';
import { Icon } from './icons.tsx';

interface Props {
  label: string;
  value: string | null;
  /** Saves the new text (empty text clears); resolves to an error text to show, or nothing. */
  onSave: (value: string) => Promise<string | void>;
  validate?: (value: string) => string | undefined;
  placeholder?: string;
  disabled?: boolean;
  /** Why the field is disabled, shown as its hint. */
  disabledHint?: string;
  /** The label is for screen readers only (inside table cells). */
  hideLabel?: boolean;
  /** Keeps the spinner up at least this long, so a quick save is still seen (A§9: 0.6 s). */
  minSavingMs?: number;
  inputMode?: 'text' | 'numeric' | 'url';
  suffix?: string;
}

/**
 * A field that saves itself on Enter or when it loses focus (A§5): nothing is sent when the
 * text did not change, rule errors and save failures show under the field, Escape reverts.
 */
export function EditableField({
  label,
  value,
  onSave,
  validate,
  placeholder,
  disabled = false,
  disabledHint,
  hideLabel = false,
  minSavingMs = 600,
  inputMode = 'text',
  suffix,
}: Props) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  useEffect(() => setDraft(value ?? ''), [value]);
  useEffect(() => {
    if (state !== 'saved') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  const commit = async () => {
    if (state === 'saving') return;
    const text = draft.trim();
    if (text === (value ?? '').trim()) return setError(null);
    const problem = validate?.(text);
    if (problem) return setError(problem);
    setError(null);
    setState('saving');
    const started = Date.now();
    const failure = await onSave(text).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, minSavingMs - (Date.now() - started))));
    if (failure) {
      setError(failure);
      setState('idle');
    } else setState('saved');
  };

  return (
    <div className={`editable ${error ? 'has-error' : ''} ${disabled ? 'is-disabled' : ''}`}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'editable-label'}>
        {label}
      </label>
      <div className="editable-box">
        <input
          id={id}
          value={draft}
          placeholder={placeholder}
          disabled={disabled}
          inputMode={inputMode}
          aria-invalid={Boolean(error)}
          aria-describedby={error || (disabled && disabledHint) ? `${id}-note` : undefined}
          // A link longer than its box is read whole on hover.
          title={disabled ? disabledHint : draft || undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            if (error) setError(null);
          }}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void commit();
            } else if (e.key === 'Escape') {
              setDraft(value ?? '');
              setError(null);
            }
          }}
        />
        {suffix && <span className="editable-suffix">{suffix}</span>}
        <span className="editable-state" aria-live="polite">
          {state === 'saving' && <span className="spinner spinner-dark" role="status" aria-label="Saving" />}
          {state === 'saved' && (
            <span className="editable-saved" title="Saved">
              <Icon name="check" size={16} />
              <span className="sr-only">Saved</span>
            </span>
          )}
        </span>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-note`} role="alert">
          {error}
        </p>
      ) : (
        disabled &&
        disabledHint &&
        !hideLabel && (
          <p className="field-hint" id={`${id}-note`}>
            {disabledHint}
          </p>
        )
      )}
    </div>
  );
}
