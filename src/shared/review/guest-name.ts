import { useState } from 'react';

/**
 * The name a guest signs their comments with (share links, issue 13). Kept in this browser, so
 * a guest who comes back to the link, or opens another, is not asked again.
 */
const KEY = 'cutdesk.guest-name';

export function readGuestName(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function useGuestName(): [string, (name: string) => void] {
  const [name, setName] = useState(readGuestName);
  const update = (next: string) => {
    setName(next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Private windows may refuse storage: the name then lasts for this page.
    }
  };
  return [name, update];
}
