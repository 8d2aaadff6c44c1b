import type { ReactNode } from 'react';
import type { PlayerSource } from '@/shared/media/final-video.tsx';
import { ReviewOverlay } from './review-overlay.tsx';
import { useReview } from './review-context.tsx';

/**
 * What a page hands its player so the review drives it: the <video> element's receiver, the
 * drawing overlay and, when an older version is chosen in the switcher, that version's links
 * (the current version plays from the project's own links, so the player does not restart).
 */
export function useReviewPlayer(): { onVideo?: (video: HTMLVideoElement | null) => void; overlay?: ReactNode; source?: PlayerSource } {
  const review = useReview();
  if (!review) return {};
  const { playable } = review;
  const older = playable && !playable.current && playable.media ? { ...playable.media, version: playable.number } : undefined;
  return { onVideo: review.setVideo, overlay: <ReviewOverlay />, ...(older && { source: older }) };
}
