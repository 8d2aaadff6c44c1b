import { useState } from 'react';
import { validateDrawing } from '@/domain/drawing.ts';
import { COMMENT_TEXT_MAX, GUEST_NAME_MAX, REVIEW_MESSAGES, validateCommentText } from '@/domain/review-rules.ts';
import { frameToTimecode } from '@/domain/timecode.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { Button } from '@/ui/button.tsx';
import { useGuestName } from './guest-name.ts';
import { placement } from './review-logic.ts';
import type { ReviewState } from './review-context.tsx';
import type { useCommentActions } from './use-comment-actions.ts';

/**
 * "Add a comment at 00:00:12:05": the player's frame (or the in/out marks), the text, and a
 * drawing on the paused frame. Focusing the box pauses the video, so the frame stays put.
 */
export function CommentComposer({ review, actions }: { review: ReviewState; actions: ReturnType<typeof useCommentActions> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [guestName, setGuestName] = useGuestName();
  const offline = useOffline();
  const { frame, rate, markIn, markOut, version } = review;
  const place = placement(frame, markIn, markOut);
  const at = 'problem' in place ? frameToTimecode(markIn ?? frame, rate) : frameToTimecode(place.frame, rate);
  const range = 'problem' in place || place.endFrame === null ? null : frameToTimecode(place.endFrame - 1, rate);
  const drawing = review.draft && review.draft.length > 0 ? { shapes: review.draft } : null;

  const submit = () => {
    if (!version) return;
    if ('problem' in place) return setError(place.problem);
    if (review.source.guest && !guestName.trim()) return setError(REVIEW_MESSAGES.guestNameRequired);
    const problem = validateCommentText(text);
    if (problem) return setError(problem);
    if (drawing) {
      const checked = validateDrawing(drawing);
      if (!checked.ok) return setError(checked.message);
    }
    setError(null);
    actions.create.mutate(
      { version: version.number, frame: place.frame, ...(place.endFrame !== null && { endFrame: place.endFrame }), text, ...(drawing && { drawing }) },
      {
        onSuccess: () => {
          setText('');
          review.setMarkIn(null);
          review.setMarkOut(null);
          review.setDraft(null);
        },
        onError: (e) => setError(errorMessage(e)),
      },
    );
  };

  return (
    <form
      className="comment-composer"
      data-testid="comment-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {review.source.guest && (
        <div className="composer-guest-name">
          <label htmlFor="guest-name">Your name</label>
          <input
            id="guest-name"
            type="text"
            autoComplete="name"
            value={guestName}
            maxLength={GUEST_NAME_MAX}
            placeholder="Shown with your comments"
            onChange={(event) => setGuestName(event.target.value)}
          />
        </div>
      )}
      <label htmlFor="new-comment" className="composer-label">
        Add a comment at <span className="timecode">{at}</span>
        {range && (
          <>
            {' '}
            – <span className="timecode">{range}</span>
          </>
        )}
      </label>
      <textarea
        id="new-comment"
        value={text}
        rows={3}
        maxLength={COMMENT_TEXT_MAX}
        placeholder="What should change at this frame?"
        onFocus={review.pause}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="composer-marks">
        <Button
          variant="secondary"
          className="btn-small"
          title="Mark in (I)"
          onClick={() => {
            review.pause();
            review.setMarkIn(frame);
          }}
        >
          Mark in
        </Button>
        <Button
          variant="secondary"
          className="btn-small"
          title="Mark out (O)"
          onClick={() => {
            review.pause();
            review.setMarkOut(frame);
          }}
        >
          Mark out
        </Button>
        {(markIn !== null || markOut !== null) && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              review.setMarkIn(null);
              review.setMarkOut(null);
            }}
          >
            Clear range
          </button>
        )}
        {review.draft === null ? (
          <Button
            variant="secondary"
            className="btn-small composer-draw"
            title="Draw on the paused frame"
            onClick={() => {
              review.pause();
              review.setDraft([]);
            }}
          >
            ✎ Draw
          </Button>
        ) : (
          <span className="muted composer-draw">
            {review.draft.length === 0 ? 'Draw on the picture' : `${review.draft.length} shape${review.draft.length === 1 ? '' : 's'}`}
          </span>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="composer-submit">
        <span className="muted">{text.length > COMMENT_TEXT_MAX - 200 ? `${text.length} / ${COMMENT_TEXT_MAX}` : 'Ctrl+Enter to send'}</span>
        <Button type="submit" variant="primary" className="btn-small" busy={actions.create.isPending} {...needsConnection(offline, !text.trim())}>
          Comment
        </Button>
      </div>
    </form>
  );
}
