import { OFFLINE_BANNER, useOffline } from '@/lib/connectivity.ts';

/** Shown by both shells while the server cannot be reached; gone once a call succeeds again. */
export function OfflineBanner() {
  const offline = useOffline();
  if (!offline) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M12 19h.01M3 3l18 18" />
      </svg>
      <span>{OFFLINE_BANNER}</span>
    </div>
  );
}
