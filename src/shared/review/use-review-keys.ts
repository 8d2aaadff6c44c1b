import { useEffect } from 'react';
import { forwardRate, frameAt, isTypingTarget, keyAction } from './review-logic.ts';
import { useReview } from './review-context.tsx';

/**
 * The player's keyboard while the review shows (review-logic.ts's keyAction): only when focus
 * is not in a text field, and only for the version in the player.
 */
export function useReviewKeys(): void {
  const review = useReview();
  const video = review?.video ?? null;
  const active = Boolean(review?.inPlayer);
  const seekFrame = review?.seekFrame;
  const setMarkIn = review?.setMarkIn;
  const setMarkOut = review?.setMarkOut;
  const rate = review?.rate;
  const num = rate?.num ?? 30;
  const den = rate?.den ?? 1;

  useEffect(() => {
    if (!video || !active || !seekFrame || !setMarkIn || !setMarkOut) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target as HTMLElement | null)) return;
      // Inside a dialog the keys are the dialog's.
      if ((event.target as HTMLElement | null)?.closest?.('[role="dialog"]')) return;
      const action = keyAction(event);
      if (!action) return;
      // Space on a focused button presses that button, as everywhere else.
      if (action.kind === 'toggle-play' && (event.target as HTMLElement | null)?.tagName === 'BUTTON') return;
      event.preventDefault();
      const now = frameAt(video.currentTime, { num, den });
      switch (action.kind) {
        case 'toggle-play':
          if (video.paused) void video.play().catch(() => undefined);
          else video.pause();
          break;
        case 'pause':
          video.pause();
          video.playbackRate = 1;
          break;
        case 'forward':
          video.playbackRate = forwardRate(video.paused, video.playbackRate);
          if (video.paused) void video.play().catch(() => undefined);
          break;
        case 'back-second':
          seekFrame(now - Math.round(num / den));
          break;
        case 'step':
          seekFrame(now + action.frames);
          break;
        case 'step-seconds':
          seekFrame(now + Math.round((action.seconds * num) / den));
          break;
        case 'mark-in':
          video.pause();
          setMarkIn(now);
          break;
        case 'mark-out':
          video.pause();
          setMarkOut(now);
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [video, active, seekFrame, setMarkIn, setMarkOut, num, den]);
}
