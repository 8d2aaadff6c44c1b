import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { emailRule, passwordRule } from '@/domain/validation.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { LoginError } from './components/login-error.tsx';
import { useSignIn } from './components/use-sign-in.ts';
import { pathTo } from '@/domain/pages.ts';

/** C§4 sign-in step state. */
type Step = 'unverified' | 'verified' | 'saved';

/** /login: two steps, the e-mail first, then the password. */
export function LoginPage() {
  const [step, setStep] = useState<Step>('unverified');
  const validate = useCallback(
    (v: { email: string; password: string }) => {
      const errors: Partial<Record<'email' | 'password', string>> = {};
      const email = emailRule(v.email);
      if (email) errors.email = email;
      if (step !== 'unverified' && !v.password) errors.password = passwordRule(v.password);
      return errors;
    },
    [step],
  );
  const form = useForm({ email: '', password: '' }, validate);
  const { submit, busy, error } = useSignIn();

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (step === 'unverified') {
      // Only the e-mail is checked here: touching the password now would show "Password is
      // required" on the password step before anything is typed.
      form.blur('email');
      if (!emailRule(form.values.email)) setStep('verified');
      return;
    }
    if (!form.checkAll()) return;
    if (await submit(form.values.email, form.values.password)) setStep('saved');
  };

  return (
    <AuthLayout>
      <h1>Sign in</h1>
      <p className="lead">{step === 'unverified' ? 'Enter the e-mail of your Cutdesk account.' : 'Enter your password to continue.'}</p>
      <div className="steps" aria-hidden>
        <span className="done" />
        <span className={step !== 'unverified' ? 'done' : ''} />
      </div>
      {error && <LoginError message={error} />}
      <form onSubmit={onSubmit} noValidate data-step={step}>
        {step === 'unverified' ? (
          <TextField label="E-mail" type="email" autoComplete="username" autoFocus {...form.field('email')} />
        ) : (
          <div className="fade-in">
            <div className="email-chip">
              <span>{form.values.email}</span>
              <button type="button" className="btn btn-ghost" style={{ height: 28, padding: '0 8px' }} onClick={() => setStep('unverified')}>
                Change
              </button>
            </div>
            <TextField label="Password" type="password" autoComplete="current-password" autoFocus {...form.field('password')} />
          </div>
        )}
        <Button type="submit" variant="success" className="btn-block" busy={busy}>
          {step === 'unverified' ? 'Continue' : 'Sign in'}
        </Button>
      </form>
      <div className="auth-links">
        <Link href={pathTo('recoverPassword')}>Forgot password?</Link>
        <Link href={pathTo('register')}>Create an account</Link>
      </div>
    </AuthLayout>
  );
}
