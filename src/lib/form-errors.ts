import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from './api-client.ts';

/**
 * The one mapping from a failed save to a form's field messages (ARCHITECTURE §3): a conflict
 * (409) shows `conflict` when the form names one (the used-e-mail message under the e-mail
 * field), otherwise the server's own field messages. Null when the error names no field: the
 * form then shows `errorMessage(error)` above its fields.
 */
export function fieldErrors<K extends string>(error: unknown, conflict?: Partial<Record<K, string>>): Partial<Record<K, string>> | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409 && conflict) return conflict;
  return Object.keys(error.fields).length ? (error.fields as Partial<Record<K, string>>) : null;
}

/** The message of one field edited in place (a table cell, a title): the server's word on that field, else the error's message. */
export function fieldError(error: unknown, field: string): string {
  return error instanceof ApiError ? (error.fields[field] ?? error.message) : errorMessage(error);
}

/** What a form submit needs of useForm (src/ui/use-form.ts): its checks and the server's field messages. */
interface SubmittableForm<K extends string> {
  checkAll(): boolean;
  setServerErrors(fields: Partial<Record<K, string>>): void;
}

/**
 * The submit of a form in a modal: checks every field, runs `save` once at a time, and shows a
 * refusal where it belongs — under its fields (fieldErrors, with `conflict` for a 409), else as
 * the form's message. `busy` disables the buttons while it runs.
 */
export function useFormSubmit<K extends string>(form: SubmittableForm<K>, conflict?: Partial<Record<K, string>>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent, save: () => Promise<void>) => {
    event.preventDefault();
    if (!form.checkAll() || busy) return;
    setBusy(true);
    setError(null);
    try {
      await save();
    } catch (e) {
      const fields = fieldErrors<K>(e, conflict);
      if (fields) form.setServerErrors(fields);
      else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
