import { useId } from 'react';
import { TextField } from './text-field.tsx';

type FieldProps = { value: string; onChange: (value: string) => void; onBlur: () => void; error?: string | undefined };

/**
 * First and last name side by side. When both fields fail with the same message (the spec's
 * "First / Last name are required" is one message for the pair), it shows once, under the row,
 * with both inputs marked invalid, instead of twice (issue 12).
 */
export function NameFields({ first, last }: { first: FieldProps; last: FieldProps }) {
  const id = useId();
  const shared = first.error && first.error === last.error ? first.error : undefined;
  const marked = shared ? { 'aria-invalid': true, 'aria-describedby': `${id}-names`, className: 'has-error' } : {};
  return (
    <>
      <div className={`form-row ${shared ? 'has-shared-error' : ''}`}>
        <TextField label="First name" autoComplete="off" {...first} {...(shared ? { error: undefined } : {})} {...marked} />
        <TextField label="Last name" autoComplete="off" {...last} {...(shared ? { error: undefined } : {})} {...marked} />
      </div>
      {shared && (
        <p className="field-error shared-field-error" id={`${id}-names`} role="alert">
          {shared}
        </p>
      )}
    </>
  );
}
