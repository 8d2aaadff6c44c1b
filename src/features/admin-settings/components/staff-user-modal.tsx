import { useCallback, useState } from 'react';
import type { User } from '@/domain/contract/users.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { collectErrors, emailRule, settingsNameRule } from '@/domain/validation.ts';
import { useFormSubmit } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { NameFields } from '@/ui/name-fields.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { saveStaffUser } from '../api/save-staff-user.ts';

type Field = 'firstName' | 'lastName' | 'email' | 'phone';
const validate = (v: Record<Field, string>) =>
  collectErrors({ firstName: settingsNameRule(v.firstName), lastName: settingsNameRule(v.lastName), email: emailRule(v.email), phone: undefined });

/** What each role the choice offers does (A§1, A§6), so the person picks knowingly. */
const ROLE_HINT: Record<'Editor' | 'Admin', string> = {
  Editor: 'Edits the projects assigned to them; sees the dashboard only.',
  Admin: 'Manages customers, editors, credits and onboarding; can log in as a customer.',
};

/** Adds a staff member (an editor, or an admin for the superadmin: issue 36) or edits one. */
export function StaffUserModal({
  user,
  roles,
  onClose,
  onSaved,
}: {
  user: User | null;
  roles: ('Editor' | 'Admin')[];
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const form = useForm<Field>(
    { firstName: user?.firstName ?? '', lastName: user?.lastName ?? '', email: user?.email ?? '', phone: user?.phone ?? '' },
    useCallback(validate, []),
  );
  const [role, setRole] = useState<'Editor' | 'Admin'>(roles[0] ?? 'Editor');
  const { busy, error, submit: run } = useFormSubmit(form, { email: MESSAGES.userEmailUsed });

  const submit = (event: React.FormEvent) =>
    run(event, async () => {
      const v = form.values;
      onSaved(
        await saveStaffUser(
          user?.id ?? null,
          { email: v.email.trim(), firstName: v.firstName.trim(), lastName: v.lastName.trim(), phone: v.phone.trim() },
          role,
        ),
      );
    });

  return (
    <Modal title={user ? 'Edit staff user' : 'Add staff user'} onClose={onClose}>
      <form noValidate onSubmit={submit}>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        {!user && roles.length > 1 && (
          <div className="role-choice" role="radiogroup" aria-label="Role">
            <span className="role-choice-label">Role</span>
            <div className="role-choice-options">
              {roles.map((r) => (
                <label key={r} className={role === r ? 'role-option role-option-on' : 'role-option'}>
                  <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />
                  <span>
                    <strong>{r}</strong>
                    <span className="role-option-hint">{ROLE_HINT[r]}</span>
                  </span>
                </label>
              ))}
            </div>
          </div>
        )}
        {!user && roles.length === 1 && roles[0] === 'Editor' && (
          <p className="role-choice-note" role="note">
            They join as an editor. Only a superadmin adds admins.
          </p>
        )}
        <NameFields first={form.field('firstName')} last={form.field('lastName')} />
        <TextField label="E-mail" type="email" autoComplete="off" {...form.field('email')} />
        <TextField label="Phone" type="tel" autoComplete="off" {...form.field('phone')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="success" busy={busy}>
            {user ? 'Save changes' : 'Add user'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
