import { useState, useSyncExternalStore } from 'react';
import { isBusy as zipRunning } from '@/shared/media/media-worker.ts';
import { isBusy as uploadsRunning, subscribeUploads } from '@/shared/uploads/upload-client.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { applyUpdate, isUpdateWaiting, subscribeUpdate } from './pwa.ts';

type Busy = 'uploads' | 'zip' | null;

function busyNow(): Busy {
  if (uploadsRunning()) return 'uploads';
  return zipRunning() ? 'zip' : null;
}

/** Uploads publish their snapshots; a zip download is only counted, so it is looked at every second. */
function subscribeBusy(onChange: () => void): () => void {
  const unsubscribe = subscribeUploads(onChange);
  const timer = setInterval(onChange, 1_000);
  return () => {
    unsubscribe();
    clearInterval(timer);
  };
}

const BUSY_TEXT: Record<Exclude<Busy, null>, string> = {
  uploads: 'Reload when your uploads finish.',
  zip: 'Reload when your zip download finishes.',
};

/**
 * "A new version of Cutdesk is ready — Reload": shown, without blocking anything, when a new
 * service worker waits. The app never reloads by itself; while uploads or a zip download run the
 * banner says so, and Reload asks first.
 */
export function UpdateBanner() {
  // A page rendered at build time (src/app/prerender.tsx) has no update waiting.
  const waiting = useSyncExternalStore(subscribeUpdate, isUpdateWaiting, () => false);
  const busy = useSyncExternalStore(subscribeBusy, busyNow, () => null);
  const [dismissed, setDismissed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reloading, setReloading] = useState(false);
  if (!waiting || dismissed) return null;

  const reload = () => {
    setReloading(true);
    applyUpdate();
  };
  return (
    <>
      <div className="update-banner" role="status" aria-live="polite" data-busy={busy ?? undefined}>
        <span className="update-banner-text">A new version of Cutdesk is ready{busy ? `. ${BUSY_TEXT[busy]}` : ' —'}</span>
        <button type="button" className="btn btn-small btn-success" disabled={reloading} onClick={() => (busy ? setConfirming(true) : reload())}>
          Reload
        </button>
        <button type="button" className="update-banner-close" aria-label="Not now" title="Not now" onClick={() => setDismissed(true)}>
          ×
        </button>
      </div>
      {confirming && (
        <ConfirmModal title="Reload now?" confirmLabel="Reload now" cancelLabel="Wait" variant="danger" onConfirm={reload} onClose={() => setConfirming(false)}>
          {busy === 'zip'
            ? 'A zip download is still being written. Reloading now stops it, and it has to start again.'
            : 'Uploads are still running. Reloading now interrupts them: they can be resumed after the reload, and some may ask you to pick the file again.'}
        </ConfirmModal>
      )}
    </>
  );
}
