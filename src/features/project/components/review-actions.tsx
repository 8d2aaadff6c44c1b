import { useState, type ReactNode } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { COMMENT_TEXT_MAX, REVIEW_MESSAGES, canRequestChanges, validateCommentText } from '@/domain/review-rules.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { useQueryClient } from '@/lib/query.ts';
import { createComment } from '@/shared/review/api/create-comment.ts';
import { reviewKeys } from '@/shared/review/keys.ts';
import { useChangeRequest } from '@/shared/review/use-change-request.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { approveProject } from '../api/approve-project.ts';
import { submitProject } from '../api/submit-project.ts';

/** IN_REVIEW: Request changes (review link + Submit revision) or Looks great (approve). */
export function ReviewActions({ project, onChanged, share }: { project: Project; onChanged: (p: Project) => void; share?: ReactNode }) {
  const [requesting, setRequesting] = useState(false);
  const offline = useOffline();
  const [approving, setApproving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const client = useQueryClient();
  const request = useChangeRequest(project.id);
  // A version reviewed frame by frame must say what to change (comments or a note); a version from
  // before frame-accurate review has its feedback on the review link.
  const framed = request.current !== null;
  const allowed = !framed || canRequestChanges({ openComments: request.openComments, note });

  const submitRevision = async () => {
    const problem = framed && note.trim() ? validateCommentText(note) : undefined;
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      if (framed && note.trim()) {
        // The note is kept with the version's comments, at its first frame, so the editor finds it with the rest.
        await createComment(project.id, { version: request.current!.number, frame: 0, text: note });
        setNote('');
        void client.invalidateQueries({ queryKey: reviewKeys.comments(project.id, request.current!.number) });
      }
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
          {framed ? (
            <>
              <p>
                {request.openComments > 0
                  ? `Your ${request.openComments === 1 ? 'open comment goes' : `${request.openComments} open comments go`} to the editor with this request:`
                  : 'Leave comments on the video at the frames to change, or write a note for the editor.'}
              </p>
              {request.openThreads.length > 0 && (
                <ul className="revision-comments" data-testid="revision-comments">
                  {request.openThreads.map((thread) => (
                    <li key={thread.id}>
                      <span className="timecode">{thread.timecode}</span> <span className="revision-comment-text">{thread.text}</span>
                    </li>
                  ))}
                </ul>
              )}
              <div className="field">
                <label htmlFor="revision-note">Note for the editor{request.openComments > 0 ? ' (optional)' : ''}</label>
                <textarea id="revision-note" rows={3} maxLength={COMMENT_TEXT_MAX} value={note} onChange={(event) => setNote(event.target.value)} />
              </div>
              {project.reviewLink && (
                <p className="muted">
                  You can also use{' '}
                  <a href={project.reviewLink} target="_blank" rel="noreferrer" data-testid="review-link">
                    the review page
                  </a>
                  .
                </p>
              )}
              {!allowed && (
                <p className="field-hint" data-testid="request-changes-hint">
                  {REVIEW_MESSAGES.changesNeedFeedback}
                </p>
              )}
            </>
          ) : (
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
          )}
          <div className="button-row">
            <Button variant="ghost" onClick={() => setRequesting(false)}>
              Back
            </Button>
            <Button
              variant="primary"
              busy={busy}
              {...needsConnection(offline, !allowed)}
              title={!allowed ? REVIEW_MESSAGES.changesNeedFeedback : needsConnection(offline).title}
              onClick={() => void submitRevision()}
            >
              Submit revision
            </Button>
          </div>
        </div>
      )}
      {error && <div className="form-error">{error}</div>}
      {share && (
        <div className="review-share">
          <span className="muted">Want someone else’s opinion? They need no account.</span>
          {share}
        </div>
      )}
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
