import { useCallback } from 'react';
import { Link, useSearch } from 'wouter';
import { FIELD_MESSAGES, emailRule } from '@/domain/validation.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { LoginError } from './components/login-error.tsx';
import { useSignIn } from './components/use-sign-in.ts';
import { pathTo } from '@/domain/pages.ts';

/** /login/user: e-mail and password together, with recovery and registration links. */
export function LoginUserPage() {
  const validate = useCallback((v: { email: string; password: string }) => {
    const errors: Partial<Record<'email' | 'password', string>> = {};
    const email = emailRule(v.email);
    if (email) errors.email = email;
    if (!v.password) errors.password = FIELD_MESSAGES.passwordRequired;
    return errors;
  }, []);
  // A trial user's link from staff (A§2 tab 2) names their e-mail: it is only typed in for them.
  const search = useSearch();
  const form = useForm({ email: (new URLSearchParams(search).get('email') ?? '').slice(0, 254), password: '' }, validate);
  const { submit, busy, error } = useSignIn();

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (form.checkAll()) await submit(form.values.email, form.values.password);
  };

  return (
    <AuthLayout>
      <h1>Welcome back</h1>
      <p className="lead">Sign in to your organization's projects.</p>
      {error && <LoginError message={error} />}
      <form onSubmit={onSubmit} noValidate>
        <TextField label="E-mail" type="email" autoComplete="username" {...form.field('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
        <Button type="submit" variant="success" className="btn-block" busy={busy}>
          Sign in
        </Button>
      </form>
      <div className="auth-links">
        <Link href={pathTo('recoverPassword')}>Forgot password?</Link>
        <span>
          New here? <Link href={pathTo('register')}>Create an account</Link>
        </span>
      </div>
    </AuthLayout>
  );
}
