import { useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { approveProject } from '../api/approve-project.ts';
import { submitProject } from '../api/submit-project.ts';

/** IN_REVIEW: Request changes (review link + Submit revision) or Looks great (approve). */
export function ReviewActions({ project, onChanged }: { project: Project; onChanged: (p: Project) => void }) {
  const [requesting, setRequesting] = useState(false);
  const offline = useOffline();
  const [approving, setApproving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submitRevision = async () => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await submitProject(project.id));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="review-actions card">
      <div>
        <h2>How does it look?</h2>
        <p className="muted">Watch version {String(project.noReviews).padStart(2, '0')}, then approve it or tell the editor what to change.</p>
      </div>
      {!requesting ? (
        <div className="button-row">
          <Button variant="secondary" {...needsConnection(offline)} onClick={() => setRequesting(true)}>
            Request changes
          </Button>
          <Button variant="success" {...needsConnection(offline)} onClick={() => setApproving(true)}>
            Looks great
          </Button>
        </div>
      ) : (
        <div className="revision fade-in">
          <p>
            Leave your comments on the review page, with timestamps where you can
            {project.reviewLink ? (
              <>
                :{' '}
                <a href={project.reviewLink} target="_blank" rel="noreferrer" data-testid="review-link">
                  open the review page
                </a>
              </>
            ) : (
              '.'
            )}{' '}
            When you are done, submit the revision so the editor starts on it.
          </p>
          <div className="button-row">
            <Button variant="ghost" onClick={() => setRequesting(false)}>
              Back
            </Button>
            <Button variant="primary" busy={busy} {...needsConnection(offline)} onClick={() => void submitRevision()}>
              Submit revision
            </Button>
          </div>
        </div>
      )}
      {error && <div className="form-error">{error}</div>}
      {approving && (
        <ConfirmModal
          title="Approve this video?"
          confirmLabel="Approve"
          cancelLabel="Not yet"
          variant="success"
          onClose={() => setApproving(false)}
          onConfirm={async () => {
            try {
              onChanged(await approveProject(project.id));
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>The video becomes final and moves to your content library, ready to download.</p>
        </ConfirmModal>
      )}
    </div>
  );
}
