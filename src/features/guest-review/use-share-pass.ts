import { useState } from 'react';

/**
 * The pass a protected link's password gave (12 hours), kept for this tab only: a reload does not
 * ask again, closing the tab forgets it.
 */
const keyOf = (token: string) => `cutdesk.share-pass.${token.split('.')[0]}`;

export function useSharePass(token: string): [string | null, (pass: string | null) => void] {
  const [pass, setPass] = useState<string | null>(() => {
    try {
      return sessionStorage.getItem(keyOf(token));
    } catch {
      return null;
    }
  });
  const update = (next: string | null) => {
    setPass(next);
    try {
      if (next) sessionStorage.setItem(keyOf(token), next);
      else sessionStorage.removeItem(keyOf(token));
    } catch {
      // Storage refused (a private window): the pass lasts for this page.
    }
  };
  return [pass, update];
}
