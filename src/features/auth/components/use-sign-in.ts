import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { MESSAGES } from '@/domain/messages.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { botCheckToken, passesBotCheck } from '@/lib/bot-check.ts';
import { returnPathAfterSignIn } from '@/lib/return-path.ts';
import { landingFor, signIn } from '@/lib/session.ts';

/**
 * Bot check, login, personal info, then the page the user was on when their session ended
 * (`?next=`, a same-origin path this user may open) or else the landing page of their portal.
 */
export function useSignIn() {
  const [, navigate] = useLocation();
  const next = new URLSearchParams(useSearch()).get('next');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (email: string, password: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      if (!(await passesBotCheck())) {
        setError(MESSAGES.botCheckFailed);
        return false;
      }
      const me = await signIn(email, password, await botCheckToken('login'));
      navigate(returnPathAfterSignIn(next, me.role.name) ?? landingFor(me), { replace: true });
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error };
}
