import { useCallback, useState } from 'react';
import type { User } from '@/domain/contract/users.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { collectErrors, confirmEmailRule, emailRule, settingsNameRule, settingsPhoneRule } from '@/domain/validation.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { createUser } from '../api/create-user.ts';
import { updateUser } from '../api/update-user.ts';

type Field = 'firstName' | 'lastName' | 'email' | 'confirmEmail' | 'phone';

const validate = (v: Record<Field, string>) =>
  collectErrors({
    firstName: settingsNameRule(v.firstName),
    lastName: settingsNameRule(v.lastName),
    email: emailRule(v.email),
    confirmEmail: confirmEmailRule(v.email, v.confirmEmail),
    phone: settingsPhoneRule(v.phone),
  });

/**
 * C§2 add/edit user modal (width 709): rules of C§5 on blur and on submit. A used e-mail
 * marks the field (C§8) and keeps submit disabled until a field is edited.
 */
export function UserFormModal({
  organizationId,
  user,
  onClose,
  onSaved,
}: {
  organizationId: number;
  user: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const form = useForm<Field>(
    { firstName: user?.firstName ?? '', lastName: user?.lastName ?? '', email: user?.email ?? '', confirmEmail: user?.email ?? '', phone: user?.phone ?? '' },
    useCallback(validate, []),
  );
  const [busy, setBusy] = useState(false);
  const [emailUsed, setEmailUsed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const field = (key: Field) => {
    const props = form.field(key);
    return {
      ...props,
      onChange: (value: string) => {
        props.onChange(value);
        if (emailUsed) {
          setEmailUsed(false);
          form.setServerErrors({});
        }
      },
    };
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form.checkAll() || busy || emailUsed) return;
    setBusy(true);
    setError(null);
    const { values: v } = form;
    const fields = { email: v.email.trim(), firstName: v.firstName.trim(), lastName: v.lastName.trim(), phone: v.phone.trim() };
    try {
      onSaved(user ? await updateUser(user.id, organizationId, fields) : await createUser(organizationId, fields));
    } catch (e) {
      const fields = fieldErrors<Field>(e, { email: MESSAGES.userEmailUsed });
      if (fields) {
        setEmailUsed(fields.email === MESSAGES.userEmailUsed);
        form.setServerErrors(fields);
      } else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={user ? 'Edit user' : 'Add user'} onClose={onClose}>
      <form id="user-form" noValidate onSubmit={submit} className="user-form">
        <p className="modal-lead">
          {user ? 'Change the details of this member of your organization.' : 'They receive an e-mail with a link to set their password.'}
        </p>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <div className="form-row">
          <TextField label="First name" autoComplete="off" {...field('firstName')} />
          <TextField label="Last name" autoComplete="off" {...field('lastName')} />
        </div>
        <div className="form-row">
          <TextField label="E-mail" type="email" autoComplete="off" {...field('email')} />
          <TextField label="Confirm e-mail" type="email" autoComplete="off" {...field('confirmEmail')} />
        </div>
        <TextField label="Phone" inputMode="numeric" autoComplete="off" hint="Digits only, up to 14." {...field('phone')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="success" busy={busy} disabled={emailUsed}>
            {user ? 'Save changes' : 'Add user'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
