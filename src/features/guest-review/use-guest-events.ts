import { useEffect } from 'react';
import { openLiveStream } from '@/lib/live-stream.ts';
import { useQueryClient } from '@/lib/query.ts';
import { guestStreamUrl } from './api/guest-calls.ts';
import { guestKeys } from './guest-source.ts';

const DEBOUNCE_MS = 300;

/**
 * Live updates of a guest's page: a comment on the link's version or a change of the project's
 * status (approved: the conversation closes) reads the page again, as on the members' pages.
 * The link (and pass) is the stream's credential, so no ticket is asked for.
 */
export function useGuestEvents(token: string, pass: string | null, enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey: guestKeys.all(token) }), DEBOUNCE_MS);
    };
    const stop = openLiveStream({ ticket: () => Promise.resolve(''), url: () => guestStreamUrl(token, pass), onEvent: refresh, onCatchUp: refresh });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client, token, pass, enabled]);
}
