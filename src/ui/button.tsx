import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'success' | 'secondary' | 'ghost' | 'danger';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  busy?: boolean;
}

export function Button({ variant = 'primary', busy = false, className = '', children, disabled, type = 'button', ...rest }: Props) {
  return (
    <button type={type} className={`btn btn-${variant} ${busy ? 'is-busy' : ''} ${className}`} disabled={disabled || busy} aria-busy={busy} {...rest}>
      {busy && <span className="spinner spinner-inline" aria-hidden />}
      {children}
    </button>
  );
}
