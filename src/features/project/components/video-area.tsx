import { useEffect } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { VIDEO_RETRY_MS } from '@/ui/constants.ts';
import { FinalVideo } from '@/shared/media/final-video.tsx';
import { Icon } from '@/ui/icons.tsx';

/**
 * The edited video once staff delivered it (played through HLS, checked every 5 s while it is
 * being processed, the no-media modal when it is missing); before that, the C§4 "being
 * processed" note while in review, reloading the project every 5 s through `onRetry`.
 */
export function VideoArea({ project, onRetry }: { project: Project; onRetry: () => void }) {
  const waiting = project.status.name === 'IN_REVIEW' && !project.finalVideoPreview;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(onRetry, VIDEO_RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, onRetry]);

  const status = project.status.name;
  const placeholder = (
    <div className="player-placeholder" data-testid="video-placeholder">
      <Icon name="film" size={40} />
      {waiting ? (
        <>
          <strong>Your video is being processed</strong>
          <p>It will be ready in a few minutes. This page checks again every few seconds.</p>
        </>
      ) : status === 'OPENED' ? (
        <>
          <strong>No video yet</strong>
          <p>Complete the brief, upload your footage and send the project to editing. The edited video appears here.</p>
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
  return <FinalVideo project={project} audience="customer" placeholder={placeholder} />;
}
