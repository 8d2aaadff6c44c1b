import { useCallback, useState } from 'react';
import type { User } from '@/domain/contract/users.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { collectErrors, emailRule, settingsNameRule } from '@/domain/validation.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { NameFields } from '@/ui/name-fields.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { createEditor } from '../api/create-editor.ts';
import { updateEditor } from '../api/update-editor.ts';
import { PictureInput } from './picture-input.tsx';

type Field = 'firstName' | 'lastName' | 'email' | 'phone';

// A§5: first name, last name and e-mail are required; the phone has no rule.
const validate = (v: Record<Field, string>) =>
  collectErrors({ firstName: settingsNameRule(v.firstName), lastName: settingsNameRule(v.lastName), email: emailRule(v.email), phone: undefined });

/**
 * A§2 add-editor modal; editing switches to the finish-profile wording. An e-mail already in use
 * (409) shows the used-e-mail message (A§8), which clears on the next key pressed in the e-mail
 * field; other refusals show the server's field messages (src/lib/form-errors.ts).
 */
export function EditorModal({ editor, onClose, onSaved }: { editor: User | null; onClose: () => void; onSaved: (editor: User) => void }) {
  const form = useForm<Field>(
    { firstName: editor?.firstName ?? '', lastName: editor?.lastName ?? '', email: editor?.email ?? '', phone: editor?.phone ?? '' },
    useCallback(validate, []),
  );
  const [picture, setPicture] = useState<string | null>(editor?.profilePictureUrl ?? null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form.checkAll() || busy) return;
    setBusy(true);
    setError(null);
    const v = form.values;
    const fields = { email: v.email.trim(), firstName: v.firstName.trim(), lastName: v.lastName.trim(), phone: v.phone.trim(), profilePictureUrl: picture };
    try {
      onSaved(editor ? await updateEditor(editor.id, fields) : await createEditor(fields));
    } catch (e) {
      const fields = fieldErrors<Field | 'profilePictureUrl'>(e, { email: MESSAGES.userEmailUsed });
      if (fields) {
        form.setServerErrors(fields);
        if (fields.profilePictureUrl) setError(fields.profilePictureUrl);
      } else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const title = editor ? 'Finish editor profile' : 'Add editor';
  const email = form.field('email');
  return (
    <Modal title={title} onClose={onClose}>
      <form noValidate onSubmit={submit} className="editor-form">
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <PictureInput name={`${form.values.firstName} ${form.values.lastName}`.trim()} value={picture} onChange={setPicture} />
        <NameFields first={form.field('firstName')} last={form.field('lastName')} />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          {...email}
          // A§8: the used-e-mail message clears on keydown in the e-mail field.
          onKeyDown={() => form.errors.email === MESSAGES.userEmailUsed && form.setServerErrors({})}
        />
        <TextField label="WhatsApp number" type="tel" autoComplete="off" hint="Optional, any format." {...form.field('phone')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="success" busy={busy}>
            {editor ? 'Finish profile' : 'Add editor'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
