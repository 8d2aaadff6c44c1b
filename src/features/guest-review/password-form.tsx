import { useState } from 'react';
import { SHARE_MESSAGES } from '@/domain/share-links.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { Button } from '@/ui/button.tsx';
import { unlockShare } from './api/guest-calls.ts';

/** A protected link asks for its password once per tab; the answer is a pass for the next calls. */
export function PasswordForm({ token, onUnlocked }: { token: string; onUnlocked: (pass: string) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!password) return setError(SHARE_MESSAGES.passwordRequired);
    setBusy(true);
    setError(null);
    try {
      onUnlocked((await unlockShare(token, password)).pass);
    } catch (e) {
      setError(e instanceof ApiError && e.fields?.password ? e.fields.password : errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="card guest-password"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h1>This review is protected</h1>
      <p className="muted">Enter the password you were given with the link.</p>
      <label htmlFor="share-password">Password</label>
      <input
        id="share-password"
        type="password"
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-invalid={error !== null}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" busy={busy}>
        Open the review
      </Button>
    </form>
  );
}
