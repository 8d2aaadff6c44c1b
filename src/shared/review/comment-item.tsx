import { memo, useState } from 'react';
import type { Comment, Thread } from '@/domain/contract/review.ts';
import { COMMENT_TEXT_MAX } from '@/domain/review-rules.ts';
import type { CommentAuthorRole } from '@/domain/share-links.ts';
import { isStaffRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { relativeTime } from './review-logic.ts';
import type { useCommentActions } from './use-comment-actions.ts';

const ROLE_LABEL: Record<CommentAuthorRole, string> = {
  SUPERADMIN: 'Cutdesk',
  ADMIN: 'Cutdesk',
  EDITOR: 'Editor',
  OWNER: 'Client',
  USER: 'Client',
  GUEST: 'Guest',
};

type Actions = ReturnType<typeof useCommentActions>;

function Author({ comment }: { comment: Comment }) {
  const absolute = new Date(comment.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="comment-meta">
      <strong className="comment-author">{comment.author.name}</strong>
      <Badge tone={isStaffRole(comment.author.role) ? 'info' : 'neutral'}>{ROLE_LABEL[comment.author.role]}</Badge>
      <time dateTime={comment.createdAt} title={absolute}>
        {relativeTime(comment.createdAt)}
      </time>
    </div>
  );
}

function TextEditor({
  initial,
  label,
  busy,
  onSave,
  onCancel,
}: {
  initial: string;
  label: string;
  busy: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <form
      className="comment-edit"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(text);
      }}
    >
      <textarea
        aria-label={label}
        value={text}
        maxLength={COMMENT_TEXT_MAX}
        rows={3}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
            event.preventDefault();
            onSave(text);
          }
          if (event.key === 'Escape') onCancel();
        }}
      />
      <div className="button-row">
        <Button variant="ghost" className="btn-small" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" className="btn-small" busy={busy} disabled={!text.trim()}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** One comment's text and its own actions (Edit, Delete), for a thread or a reply. */
function CommentBody({ comment, actions, open }: { comment: Comment; actions: Actions; open: boolean }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = (text: string) => {
    setError(null);
    actions.update.mutate({ id: comment.id, body: { text } }, { onSuccess: () => setEditing(false), onError: (e) => setError(errorMessage(e)) });
  };
  return (
    <>
      <Author comment={comment} />
      {comment.deleted ? (
        <p className="comment-text muted">This comment was deleted.</p>
      ) : editing ? (
        <TextEditor initial={comment.text} label="Edit the comment" busy={actions.update.isPending} onSave={save} onCancel={() => setEditing(false)} />
      ) : (
        <p className="comment-text">{comment.text}</p>
      )}
      {!editing && !comment.deleted && ((open && comment.canEdit) || comment.canDelete) && (
        <div className="comment-tools">
          {open && comment.canEdit && (
            <button type="button" className="link-button" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {comment.canDelete && (
            <button type="button" className="link-button" onClick={() => setDeleting(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {error && <p className="field-error">{error}</p>}
      {deleting && (
        <ConfirmModal
          title="Delete this comment?"
          confirmLabel="Delete"
          cancelLabel="Keep it"
          variant="danger"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            try {
              await actions.remove.mutateAsync(comment.id);
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>{comment.parentId === null ? 'The comment is removed for everyone; replies to it stay readable.' : 'The reply is removed for everyone.'}</p>
        </ConfirmModal>
      )}
    </>
  );
}

interface ThreadProps {
  thread: Thread;
  actions: Actions;
  /** Commenting is open (not approved). */
  open: boolean;
  /** The version is in the player: the timecode seeks. */
  seekable: boolean;
  active: boolean;
  onSeek: (thread: Thread) => void;
}

/** A thread: its timecode chip (seeks), its text, replies one level deep, Resolve / Reopen and Reply. */
export const ThreadItem = memo(function ThreadItem({ thread, actions, open, seekable, active, onSeek }: ThreadProps) {
  const [replying, setReplying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const resolve = () => {
    setError(null);
    actions.update.mutate({ id: thread.id, body: { resolved: !thread.resolved } }, { onError: (e) => setError(errorMessage(e)) });
  };
  const reply = (text: string) => {
    setError(null);
    actions.create.mutate(
      { version: thread.version, parentId: thread.id, text },
      { onSuccess: () => setReplying(false), onError: (e) => setError(errorMessage(e)) },
    );
  };
  return (
    <li
      className={`review-thread${thread.resolved ? ' resolved' : ''}${active ? ' active' : ''}`}
      data-testid="review-thread"
      data-id={thread.id}
      data-frame={thread.frame}
    >
      <div className="review-thread-head">
        <button
          type="button"
          className="timecode-chip"
          disabled={!seekable}
          title={seekable ? 'Go to this frame' : 'This version cannot be played here'}
          onClick={() => onSeek(thread)}
        >
          {thread.timecode}
          {thread.endTimecode && <> – {thread.endTimecode}</>}
        </button>
        {thread.drawing !== null && (
          <span className="comment-drawing-tag" title="Has a drawing on the frame">
            ✎ drawing
          </span>
        )}
        {thread.resolved && <Badge tone="success">Resolved</Badge>}
        {open && thread.canResolve && !thread.deleted && (
          <button type="button" className="link-button resolve-button" disabled={actions.update.isPending} onClick={resolve}>
            {thread.resolved ? 'Reopen' : 'Resolve'}
          </button>
        )}
      </div>
      <CommentBody comment={thread} actions={actions} open={open} />
      {thread.replies.length > 0 && (
        <ul className="review-replies">
          {thread.replies.map((r) => (
            <li key={r.id} className="review-reply">
              <CommentBody comment={r} actions={actions} open={open} />
            </li>
          ))}
        </ul>
      )}
      {open &&
        (replying ? (
          <TextEditor initial="" label="Your reply" busy={actions.create.isPending} onSave={reply} onCancel={() => setReplying(false)} />
        ) : (
          <button type="button" className="link-button reply-button" onClick={() => setReplying(true)}>
            Reply
          </button>
        ))}
      {error && <p className="field-error">{error}</p>}
    </li>
  );
});
