import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { AUTHOR_NAME, RECOVER_SUBMIT_DELAY_MS } from '@/ui/constants.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { collectErrors, emailRule } from '@/domain/validation.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { recoverPassword } from './api/recover-password.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { pathTo } from '@/domain/pages.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /recover-password: form, then the "check your e-mail" state. */
export function RecoverPasswordPage() {
  const validate = useCallback((v: { email: string }) => collectErrors({ email: emailRule(v.email) }), []);
  const form = useForm({ email: '' }, validate);
  const [state, setState] = useState<'form' | 'sent'>('form');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // C§2: submit runs after 500 ms so validation of the last keystroke can finish.
    await wait(RECOVER_SUBMIT_DELAY_MS);
    if (!form.checkAll()) return setBusy(false);
    try {
      await recoverPassword(form.values.email.trim());
      setState('sent');
    } catch (e) {
      console.error('password recovery request failed', e);
      setError(MESSAGES.generic);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout footer={`© ${AUTHOR_NAME}`}>
      <h1>Reset your password</h1>
      {state === 'sent' ? (
        <div className="form-success fade-in" role="status">
          <strong>Check your e-mail.</strong> If an account exists for {form.values.email.trim()}, we sent a link to choose a new password. The link expires in
          one hour.
        </div>
      ) : (
        <>
          <p className="lead">Enter your account's e-mail and we will send you a link to choose a new password.</p>
          {error && <div className="form-error">{error}</div>}
          <form onSubmit={onSubmit} noValidate>
            <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} />
            <Button type="submit" variant="success" className="btn-block" busy={busy}>
              Confirm
            </Button>
          </form>
        </>
      )}
      <div className="auth-links">
        <Link href={pathTo('customerSignIn')}>Back to sign in</Link>
        <span>{AUTHOR_NAME}</span>
      </div>
    </AuthLayout>
  );
}
