import { useCallback, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { MESSAGES, RECOVERY_CODE_ERROR } from '@/domain/messages.ts';
import { collectErrors, confirmPasswordRule, passwordRule } from '@/domain/validation.ts';
import { ApiError } from '@/lib/api-client.ts';
import { landingFor, startSession } from '@/lib/session.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { completeRecovery } from './api/complete-recovery.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { pathTo } from '@/domain/pages.ts';

type Field = 'password' | 'confirm';

/** /change-password?code=…&email=… from a recovery or invitation e-mail. */
export function ChangePasswordPage() {
  const params = new URLSearchParams(useSearch());
  // URLSearchParams already URL-decodes both values (C§2).
  const code = params.get('code') ?? '';
  const email = params.get('email') ?? '';
  const [, navigate] = useLocation();
  const validate = useCallback(
    (v: Record<Field, string>) => collectErrors({ password: passwordRule(v.password), confirm: confirmPasswordRule(v.password, v.confirm, true) }),
    [],
  );
  const form = useForm<Field>({ password: '', confirm: '' }, validate);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!form.checkAll() || busy) return;
    setBusy(true);
    setError(null);
    try {
      const me = await startSession(await completeRecovery(email, code, form.values.password));
      navigate(landingFor(me), { replace: true });
    } catch (e) {
      setError(e instanceof ApiError && e.code === RECOVERY_CODE_ERROR ? MESSAGES.recoveryCodeInvalid : MESSAGES.generic);
    } finally {
      setBusy(false);
    }
  };

  const missingLink = !code || !email;
  return (
    <AuthLayout>
      <h1>Choose a new password</h1>
      <p className="lead">{email ? `For ${email}` : 'Open the link from your e-mail to set a password.'}</p>
      {(error || missingLink) && (
        <div className="form-error" role="alert">
          {error ?? MESSAGES.recoveryCodeInvalid}
        </div>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField label="New password" type="password" autoComplete="new-password" {...form.field('password')} />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...form.field('confirm')}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <Button type="submit" variant="success" className="btn-block" busy={busy} disabled={missingLink}>
          Confirm
        </Button>
      </form>
      <div className="auth-links">
        <Link href={pathTo('recoverPassword')}>Send a new link</Link>
        <Link href={pathTo('customerSignIn')}>Back to sign in</Link>
      </div>
    </AuthLayout>
  );
}
