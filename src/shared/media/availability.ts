import { useEffect, useState } from 'react';
import { availabilityOf, type MediaAvailability } from '@/domain/media.ts';
import { VIDEO_RETRY_MS } from '@/ui/constants.ts';

/**
 * C§4 / A§4 availability check of a media link: `GET` with `Range: bytes=0-0`. The link
 * answers 503 while the media is being processed, 404 when it is missing in storage (or its
 * processing failed), and redirects to storage once it exists; the redirect is not followed
 * (the server checked the object), so the check stays one small same-origin request.
 */
export async function probeMedia(url: string, signal?: AbortSignal): Promise<MediaAvailability> {
  try {
    const response = await fetch(url, { headers: { Range: 'bytes=0-0' }, redirect: 'manual', cache: 'no-store', signal });
    if (response.type === 'opaqueredirect') return 'ready';
    return availabilityOf(response.status);
  } catch (error) {
    if (signal?.aborted) throw error;
    // Offline or a dropped connection: keep saying "being processed" and look again.
    return 'processing';
  }
}

export type AvailabilityState = MediaAvailability | 'checking' | 'none';

/**
 * The availability of `url`, checked again every 5 s while it is being processed, and at once
 * whenever `recheck` changes (issue 36: the project says its preview is ready, or a new cut is
 * being processed behind the same link).
 */
export function useMediaAvailability(url: string | null | undefined, recheck?: string): AvailabilityState {
  const [state, setState] = useState<{ url: string | null; value: AvailabilityState }>({ url: null, value: 'none' });
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        const value = await probeMedia(url, controller.signal);
        setState({ url, value });
        if (value === 'processing') timer = setTimeout(() => void check(), VIDEO_RETRY_MS);
      } catch {
        // aborted: the component went away or the link changed
      }
    };
    void check();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [url, recheck]);
  if (!url) return 'none';
  return state.url === url ? state.value : 'checking';
}
