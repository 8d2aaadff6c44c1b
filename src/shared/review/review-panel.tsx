import { useCallback, useEffect, useRef, useState } from 'react';
import type { Thread } from '@/domain/contract/review.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { Spinner } from '@/ui/empty-state.tsx';
import { CommentComposer } from './comment-composer.tsx';
import { ThreadItem } from './comment-item.tsx';
import { ExportMarkers } from './export-markers.tsx';
import { initialPair } from './compare-logic.ts';
import { isOnComment, versionLabel, visibleThreads } from './review-logic.ts';
import { useReview, type ReviewState } from './review-context.tsx';
import { useCommentActions } from './use-comment-actions.ts';
import { VersionCompare } from './version-compare.tsx';

/** "Compare versions" when two versions can be played; the compare pauses the page's player. */
function CompareButton({ review }: { review: ReviewState }) {
  const [pair, setPair] = useState<[number, number] | null>(null);
  const playable = review.versions.filter((v) => v.media !== null);
  const initial = initialPair(review.versions, review.version?.number ?? null);
  if (!initial) return null;
  return (
    <>
      <button
        type="button"
        className="link-button compare-open"
        onClick={() => {
          review.pause();
          setPair(initial);
        }}
      >
        Compare versions
      </button>
      {pair && <VersionCompare versions={playable} initial={pair} onClose={() => setPair(null)} />}
    </>
  );
}

function VersionSwitcher({ review }: { review: ReviewState }) {
  if (review.versions.length < 2 && review.version) {
    return <span className="version-chip single">{versionLabel(review.version.number)}</span>;
  }
  return (
    <div className="version-switcher" role="group" aria-label="Version">
      {review.versions.map((v) => (
        <button
          key={v.number}
          type="button"
          className={v.number === review.version?.number ? 'active' : ''}
          aria-pressed={v.number === review.version?.number}
          title={v.current ? 'The current version' : `An older version (${new Date(v.createdAt).toLocaleDateString('en-GB')})`}
          onClick={() => review.selectVersion(v.number)}
        >
          {versionLabel(v.number)}
          {v.current && <span className="current-dot" aria-label="current" />}
        </button>
      ))}
    </div>
  );
}

function Threads({ review, showResolved }: { review: ReviewState; showResolved: boolean }) {
  const version = review.version!;
  const actions = useCommentActions(review.source, version.number);
  const { seekFrame, setSelected, inPlayer, frame, playing, selected } = review;
  const list = useRef<HTMLUListElement>(null);
  const onSeek = useCallback(
    (thread: Thread) => {
      setSelected(thread.id);
      seekFrame(thread.frame);
    },
    [seekFrame, setSelected],
  );
  // A marker clicked on the timeline brings its thread into view.
  useEffect(() => {
    if (selected === null) return;
    list.current?.querySelector(`[data-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const shown = visibleThreads(review.threads, showResolved);
  return (
    <>
      {review.open && review.inPlayer && review.video && <CommentComposer review={review} actions={actions} />}
      {review.threadsLoading ? (
        <div className="center-block">
          <Spinner />
        </div>
      ) : review.threadsError ? (
        <p className="form-error">{errorMessage(review.threadsError)}</p>
      ) : shown.length === 0 ? (
        <p className="review-empty muted">
          {review.threads.length === 0
            ? review.open && inPlayer
              ? 'No comments yet. Pause on a frame and write what should change.'
              : 'No comments on this version.'
            : 'Every comment is resolved.'}
        </p>
      ) : (
        <ul className="review-threads" ref={list} aria-label="Comments">
          {shown.map((thread) => (
            <ThreadItem
              key={thread.id}
              thread={thread}
              actions={actions}
              open={review.open}
              seekable={inPlayer}
              active={inPlayer && !playing && isOnComment(thread, frame)}
              onSeek={onSeek}
            />
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The review beside (or under) the player: the version switcher, the counts, the Show/Hide
 * resolved filter, the new comment box and the threads by frame. Staff get the marker export.
 */
export function ReviewPanel({ exportable = false, layout = 'side' }: { exportable?: boolean; layout?: 'side' | 'below' }) {
  const review = useReview();
  const [showResolved, setShowResolved] = useState(true);
  if (!review) return null;
  if (review.versionsLoading)
    return (
      <section className="card review-panel" aria-label="Comments">
        <Spinner />
      </section>
    );
  if (review.versionsError)
    return (
      <section className="card review-panel" aria-label="Comments">
        <p className="form-error">{errorMessage(review.versionsError)}</p>
      </section>
    );
  if (!review.version) return null;
  const resolved = review.threads.filter((t) => t.resolved).length;
  return (
    <section className={`card review-panel review-panel-${layout}`} aria-label="Comments" data-testid="review-panel">
      <header className="review-panel-head">
        <h2>Comments</h2>
        <VersionSwitcher review={review} />
      </header>
      <div className="review-panel-bar">
        <span className="review-counts" data-testid="review-counts">
          <strong>{review.openThreads} open</strong>
          {resolved > 0 && <span className="muted"> · {resolved} resolved</span>}
        </span>
        <span className="review-panel-actions">
          <CompareButton review={review} />
          {resolved > 0 && (
            <button type="button" className="link-button" aria-pressed={!showResolved} onClick={() => setShowResolved((v) => !v)}>
              {showResolved ? 'Hide resolved' : 'Show resolved'}
            </button>
          )}
        </span>
      </div>
      {review.inPlayer && !review.version.current && (
        <p className="review-note" role="status">
          You are watching {versionLabel(review.version.number)}, an earlier version. Choose{' '}
          {versionLabel(review.versions.find((v) => v.current)?.number ?? review.version.number)} to see the current cut.
        </p>
      )}
      {!review.inPlayer && (
        <p className="review-note" role="status">
          This version cannot be played here. Its comments stay readable.
        </p>
      )}
      {!review.open && <p className="review-note">This project is approved: its review comments are read-only.</p>}
      {exportable && <ExportMarkers projectId={review.projectId} projectName={review.projectName} version={review.version.number} />}
      <Threads review={review} showResolved={showResolved} />
    </section>
  );
}
