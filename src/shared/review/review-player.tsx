import type { ReactNode } from 'react';
import { ReviewOverlay } from './review-overlay.tsx';
import { useReview } from './review-context.tsx';

/** What a page hands its player so the review drives it: the <video> element's receiver and the drawing overlay. */
export function useReviewPlayer(): { onVideo?: (video: HTMLVideoElement | null) => void; overlay?: ReactNode } {
  const review = useReview();
  if (!review) return {};
  return { onVideo: review.setVideo, overlay: <ReviewOverlay /> };
}
