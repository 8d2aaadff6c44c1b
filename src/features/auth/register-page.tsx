import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MESSAGES } from '@/domain/messages.ts';
import {
  collectErrors,
  confirmPasswordRule,
  emailRule,
  isOrganizationNameCharacter,
  organizationNameRule,
  passwordRule,
  registerNameRule,
  registerPhoneRule,
} from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { botCheckToken, passesBotCheck } from '@/lib/bot-check.ts';
import type { Me } from '@/domain/contract/me.ts';
import { useAtomValue } from '@/lib/state.ts';
import { appStore, clearSession, meAtom } from '@/lib/session-state.ts';
import { landingFor, loadMe, startSession } from '@/lib/session.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { createOrganization } from './api/create-organization.ts';
import { register } from './api/register.ts';
import { AuthLayout } from './components/auth-layout.tsx';
import { pathTo } from '@/domain/pages.ts';

type AccountField = 'firstName' | 'lastName' | 'phone' | 'email' | 'password' | 'confirm';

const validateAccount = (v: Record<AccountField, string>) =>
  collectErrors({
    firstName: registerNameRule(v.firstName),
    lastName: registerNameRule(v.lastName),
    phone: registerPhoneRule(v.phone),
    email: emailRule(v.email),
    password: passwordRule(v.password),
    confirm: confirmPasswordRule(v.password, v.confirm),
  });

/** /register: step 0 creates the owner's account, step 1 the organization. */
export function RegisterPage() {
  const me = useAtomValue(meAtom);
  // An owner whose registration stopped after the account step continues at step 1 (the
  // account exists; only the organization is missing). Anyone else signed in is signed out first (C§2).
  const [step, setStep] = useState<0 | 1>(() => (registrationUnfinished(me) ? 1 : 0));
  useEffect(() => {
    if (!registrationUnfinished(appStore.get(meAtom))) clearSession();
  }, []);
  return (
    <AuthLayout>
      <h1>{step === 0 ? 'Create your account' : 'Name your organization'}</h1>
      <p className="lead">{step === 0 ? 'You will be the owner of your organization on Cutdesk.' : 'Your team and projects live under this name.'}</p>
      <div className="steps" aria-hidden>
        <span className="done" />
        <span className={step === 1 ? 'done' : ''} />
      </div>
      {step === 0 ? <AccountStep onDone={() => setStep(1)} /> : <OrganizationStep />}
      <div className="auth-links">
        <span>
          Already have an account? <Link href={pathTo('customerSignIn')}>Sign in</Link>
        </span>
        <Link href={pathTo('pricing')}>See pricing</Link>
      </div>
    </AuthLayout>
  );
}

/** Signed in as an owner of no organization yet: the account step is done, the organization step is not. */
const registrationUnfinished = (me: Me | null) => me !== null && me.role.name === 'OWNER' && me.organizationId === null;

function AccountStep({ onDone }: { onDone: () => void }) {
  const form = useForm<AccountField>({ firstName: '', lastName: '', phone: '', email: '', password: '', confirm: '' }, validateAccount);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form.checkAll()) return;
    setBusy(true);
    setError(null);
    try {
      if (!(await passesBotCheck())) return setError(MESSAGES.botCheckFailed);
      const { values: v } = form;
      const session = await register({
        email: v.email.trim(),
        password: v.password,
        firstName: v.firstName,
        lastName: v.lastName,
        phone: v.phone,
        role: 'Owner',
        code: await botCheckToken('register'),
      });
      await startSession(session);
      onDone();
    } catch (e) {
      // C§8: a registration failure is shown as the e-mail being in use, unless a field says otherwise.
      form.setServerErrors(fieldErrors<AccountField>(e) ?? { email: MESSAGES.emailAlreadyRegistered });
      if (e instanceof ApiError && e.status === 429) setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="fade-in">
      {error && <div className="form-error">{error}</div>}
      <div className="form-row">
        <TextField label="First name" autoComplete="given-name" {...form.field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" {...form.field('lastName')} />
      </div>
      <TextField label="Phone" inputMode="numeric" autoComplete="tel" {...form.field('phone')} />
      <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} />
      <div className="form-row">
        <TextField label="Password" type="password" autoComplete="new-password" {...form.field('password')} />
        <TextField label="Re-enter password" type="password" autoComplete="new-password" {...form.field('confirm')} />
      </div>
      <Button type="submit" variant="success" className="btn-block" busy={busy}>
        Continue
      </Button>
    </form>
  );
}

function OrganizationStep() {
  const [, navigate] = useLocation();
  const validate = useCallback((v: { name: string }) => collectErrors({ name: organizationNameRule(v.name) }), []);
  const form = useForm({ name: '' }, validate);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form.checkAll()) return;
    setBusy(true);
    try {
      await createOrganization(form.values.name);
      const me = await loadMe();
      navigate(landingFor(me), { replace: true });
    } catch (e) {
      form.setServerErrors({ name: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const field = form.field('name');
  return (
    <form onSubmit={onSubmit} noValidate className="fade-in">
      <TextField
        label="Company / organization name"
        autoFocus
        {...field}
        // Characters the name may not hold are dropped as they are typed (C§5).
        onChange={(value) => field.onChange([...value].filter(isOrganizationNameCharacter).join(''))}
      />
      <Button type="submit" variant="success" className="btn-block" busy={busy}>
        Create organization
      </Button>
    </form>
  );
}
