import { useId } from 'react';

interface Base {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  disabled?: boolean;
}

function FieldShell({ id, label, error, children }: { id: string; label: string; error?: string | undefined; children: React.ReactNode }) {
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({ options, placeholder = 'Choose…', ...props }: Base & { options: readonly string[]; placeholder?: string }) {
  const id = useId();
  return (
    <FieldShell id={id} label={props.label} error={props.error}>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
        aria-invalid={Boolean(props.error)}
      >
        <option value="" disabled>
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export function TextAreaField({ rows = 6, placeholder, ...props }: Base & { rows?: number; placeholder?: string }) {
  const id = useId();
  return (
    <FieldShell id={id} label={props.label} error={props.error}>
      <textarea
        id={id}
        rows={rows}
        value={props.value}
        placeholder={placeholder}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
        aria-invalid={Boolean(props.error)}
      />
    </FieldShell>
  );
}
