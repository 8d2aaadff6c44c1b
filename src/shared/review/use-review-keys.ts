import { useEffect } from 'react';
import { forwardRate, frameAt, isTypingTarget, keyAction, reverseRate, reverseStep } from './review-logic.ts';
import { useReview } from './review-context.tsx';

/** A playhead further than this from where backward play put it was moved by someone else. */
const MOVED_SECONDS = 0.5;

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
    // Backward play (J): the video stays paused while the playhead walks back one animation frame
    // at a time; a seek is asked for only once the previous one has landed, so a slow decoder
    // shows fewer frames instead of falling behind.
    const still = { rate: 0, position: 0, last: 0, frame: 0, asked: null as number | null };
    let reverse = { ...still };
    const stopReverse = () => {
      if (reverse.frame) cancelAnimationFrame(reverse.frame);
      reverse = { ...still };
    };
    const walkBack = (now: number) => {
      // Someone moved the playhead (the timeline, a comment): backward play stops there.
      if (!video.seeking && reverse.asked !== null && Math.abs(video.currentTime - reverse.asked) > MOVED_SECONDS) return stopReverse();
      reverse.position = reverseStep(reverse.position, reverse.rate, now - reverse.last);
      reverse.last = now;
      if (!video.seeking) {
        video.currentTime = reverse.position;
        reverse.asked = reverse.position;
      }
      if (reverse.position <= 0) return stopReverse();
      reverse.frame = requestAnimationFrame(walkBack);
    };
    const startReverse = () => {
      const rate = reverseRate(reverse.rate);
      video.pause();
      video.playbackRate = 1;
      if (reverse.rate === 0) {
        reverse = { ...still, rate, position: video.currentTime, last: performance.now(), frame: requestAnimationFrame(walkBack) };
      } else reverse.rate = rate;
    };
    // Playing forwards (the player's own button too) ends backward play.
    video.addEventListener('play', stopReverse);
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target as HTMLElement | null)) return;
      // Inside a dialog the keys are the dialog's.
      if ((event.target as HTMLElement | null)?.closest?.('[role="dialog"]')) return;
      const action = keyAction(event);
      if (!action) return;
      // Space on a focused button presses that button, as everywhere else.
      if (action.kind === 'toggle-play' && (event.target as HTMLElement | null)?.tagName === 'BUTTON') return;
      event.preventDefault();
      if (action.kind === 'reverse') return startReverse();
      // Any other key ends backward play where it is, then does its own thing from there.
      const wasReversing = reverse.rate > 0;
      stopReverse();
      const now = frameAt(video.currentTime, { num, den });
      switch (action.kind) {
        case 'toggle-play':
          if (video.paused && !wasReversing) void video.play().catch(() => undefined);
          else video.pause();
          break;
        case 'pause':
          video.pause();
          video.playbackRate = 1;
          // Backward play stops between frames: settle on the frame that shows.
          if (wasReversing) seekFrame(now);
          break;
        case 'forward':
          video.playbackRate = forwardRate(video.paused, video.playbackRate);
          if (video.paused) void video.play().catch(() => undefined);
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
    return () => {
      document.removeEventListener('keydown', onKey);
      video.removeEventListener('play', stopReverse);
      stopReverse();
    };
  }, [video, active, seekFrame, setMarkIn, setMarkOut, num, den]);
}
