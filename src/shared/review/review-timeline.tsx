import { frameToTimecode } from '@/domain/timecode.ts';
import type { MouseEvent } from 'react';
import { markerPosition } from './review-logic.ts';
import { useReview } from './review-context.tsx';
import { useReviewKeys } from './use-review-keys.ts';

/**
 * Under the player: a bar with a tick per thread at its frame (a band for a range), the
 * playhead and the in/out marks. A click on a marker seeks to its frame; on the bar, to the
 * frame under the pointer. Also switches the player's keyboard on.
 */
export function ReviewTimeline() {
  const review = useReview();
  useReviewKeys();
  if (!review || !review.inPlayer || !review.video) return null;
  const { threads, totalFrames, frame, rate, seekFrame, markIn, markOut } = review;
  const known = totalFrames !== null && totalFrames > 0;
  const onBar = (event: MouseEvent<HTMLDivElement>) => {
    if (!known) return;
    const box = event.currentTarget.getBoundingClientRect();
    seekFrame(Math.floor(((event.clientX - box.left) / box.width) * totalFrames));
  };
  const playhead = markerPosition(frame, null, totalFrames).left;
  return (
    <div className="review-timeline" data-testid="review-timeline">
      <div className="review-timeline-head">
        <span className="timecode" data-testid="playhead-timecode">
          {frameToTimecode(frame, rate)}
        </span>
        {(markIn !== null || markOut !== null) && (
          <span className="review-marks">
            In {markIn === null ? '—' : frameToTimecode(markIn, rate)} · Out {markOut === null ? '—' : frameToTimecode(markOut, rate)}
          </span>
        )}
        <span
          className="review-keys-hint"
          title="Space play/pause · J backwards, K stop, L forwards (again: faster) · ←/→ one frame · Shift+←/→ one second · I/O mark in/out"
        >
          Space · J K L · ← → · I O
        </span>
      </div>
      <div className="review-timeline-bar" onClick={onBar} role="presentation">
        {known && markIn !== null && (
          <span
            className="review-range-draft"
            style={{
              left: `${markerPosition(markIn, null, totalFrames).left}%`,
              width: `${markOut !== null && markOut >= markIn ? markerPosition(markIn, markOut + 1, totalFrames).width : 0.4}%`,
            }}
          />
        )}
        {known &&
          threads
            .filter((thread) => !thread.deleted || thread.replies.length > 0)
            .map((thread) => {
              const { left, width } = markerPosition(thread.frame, thread.endFrame, totalFrames);
              return (
                <button
                  key={thread.id}
                  type="button"
                  className={`review-marker${thread.resolved ? ' resolved' : ''}${width > 0 ? ' range' : ''}`}
                  style={{ left: `${left}%`, width: width > 0 ? `${width}%` : undefined }}
                  title={`${thread.timecode} ${thread.text}`.slice(0, 120)}
                  aria-label={`Comment at ${thread.timecode}`}
                  data-testid="review-marker"
                  onClick={(event) => {
                    event.stopPropagation();
                    review.setSelected(thread.id);
                    seekFrame(thread.frame);
                  }}
                />
              );
            })}
        {known && <span className="review-playhead" style={{ left: `${playhead}%` }} aria-hidden />}
      </div>
    </div>
  );
}
