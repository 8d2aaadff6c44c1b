import { useEffect } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { VIDEO_RETRY_MS } from '@/domain/constants.ts';
import { Icon } from '@/ui/icons.tsx';
import { VideoPlayer } from '@/ui/video-player.tsx';

/**
 * The edited video once it exists; before that, the C§4 "being processed" note, checked
 * again every 5 s through `onRetry` while the project is in review without a preview.
 */
export function VideoArea({ project, onRetry }: { project: Project; onRetry: () => void }) {
  const source = project.finalVideoPreview?.startsWith('http') ? project.finalVideoPreview : null;
  const waiting = project.status.name === 'IN_REVIEW' && !source;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(onRetry, VIDEO_RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, onRetry]);

  if (source) return <VideoPlayer src={source} poster={project.finalVideoThumbnail} version={project.noReviews} />;
  const status = project.status.name;
  return (
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
}
