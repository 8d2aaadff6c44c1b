import { useState } from 'react';

/** A page's title shown in the top bar, editable in place when `onSubmit` is set (C§2). */
export interface PageTitle {
  title: string;
  /** Returns nothing on success (editing ends) or an error text (shown; editing stays open). */
  onSubmit?: (value: string) => Promise<string | undefined>;
  validate?: (value: string) => string | undefined;
}

/** Click the title, edit, accept (✓ or Enter) or cancel (✕ or Escape). Locked when no onSubmit. */
export function InlineTitle({ title, onSubmit, validate }: PageTitle) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!editing || !onSubmit) {
    return (
      <button
        type="button"
        className={`inline-title ${onSubmit ? 'editable' : ''}`}
        disabled={!onSubmit}
        title={onSubmit ? `${title} (click to rename)` : title}
        onClick={() => {
          setValue(title);
          setError(null);
          setEditing(true);
        }}
      >
        {title}
      </button>
    );
  }
  const cancel = () => {
    setEditing(false);
    setError(null);
  };
  const accept = async () => {
    const invalid = validate?.(value);
    if (invalid) return setError(invalid);
    setBusy(true);
    const failure = await onSubmit(value.trim());
    setBusy(false);
    if (failure) setError(failure);
    else setEditing(false);
  };
  return (
    <div className="inline-title-editor">
      <input
        aria-label="Project title"
        autoFocus
        value={value}
        disabled={busy}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void accept();
          if (e.key === 'Escape') cancel();
        }}
      />
      <button type="button" aria-label="Accept title" onClick={() => void accept()} disabled={busy}>
        ✓
      </button>
      <button type="button" aria-label="Cancel title edit" onClick={cancel} disabled={busy}>
        ✕
      </button>
      {error && (
        <span className="inline-title-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
