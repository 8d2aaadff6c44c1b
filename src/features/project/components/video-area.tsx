import type { Project } from '@/domain/contract/projects.ts';
import { FinalVideo } from '@/shared/media/final-video.tsx';
import { useReviewPlayer } from '@/shared/review/review-player.tsx';
import { Icon } from '@/ui/icons.tsx';

/**
 * The edited video once staff delivered it (played through HLS, read again every 5 s by the page while
 * it is being processed, the no-media modal when it is missing); before that, a note that matches the
 * status. "Being processed" (C§4) is said only while a delivered file is being processed: a
 * version in review without any file says so instead of promising a video that never comes,
 * and a finished project never says the editors are still working.
 */
export function VideoArea({ project }: { project: Project }) {
  const player = useReviewPlayer();
  const status = project.status.name;
  const inReview = status === 'IN_REVIEW' && !project.finalVideoPreview;
  const processing = inReview && Boolean(project.finalVideoPath);

  const finished = status === 'APPROVED' || status === 'ARCHIVED';
  const placeholder = (
    <div className="player-placeholder" data-testid="video-placeholder">
      <Icon name="film" size={40} />
      {processing ? (
        <>
          <strong>Your video is being processed</strong>
          <p>It will be ready in a few minutes. This page checks again every few seconds.</p>
        </>
      ) : inReview ? (
        <>
          <strong>The video of this version is not here yet</strong>
          <p>
            The video file of version {String(project.noReviews).padStart(2, '0')} has not been delivered to Cutdesk. It appears here as soon as our editors
            upload it; use the review link in the meantime, or write to us.
          </p>
        </>
      ) : status === 'OPENED' ? (
        <>
          <strong>No video yet</strong>
          <p>Complete the brief, upload your footage and send the project to editing. The edited video appears here.</p>
        </>
      ) : finished ? (
        <>
          <strong>No video file to play here</strong>
          <p>
            This project is {status === 'APPROVED' ? 'approved' : 'archived'}, but its final video file is not available on Cutdesk. Write to us and we will
            send it again.
          </p>
        </>
      ) : (
        <>
          <strong>Our editors are on it</strong>
          <p>You will see the first version here, and we e-mail you when it is ready for review.</p>
        </>
      )}
      {project.noReviews > 0 && <span className="version">Version {String(project.noReviews).padStart(2, '0')}</span>}
    </div>
  );
  return <FinalVideo project={project} audience="customer" placeholder={placeholder} {...player} />;
}
