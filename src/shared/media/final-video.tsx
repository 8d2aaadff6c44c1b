import { useState, type ReactNode } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { siblingMediaUrl } from '@/domain/media.ts';
import { useMediaAvailability } from '@/shared/media/availability.ts';
import { Icon } from '@/ui/icons.tsx';
import { Modal } from '@/ui/modal.tsx';
import { VideoPlayer } from '@/ui/video-player.tsx';

/** Another cut than the project's current one (an older review version): its own links. */
export interface PlayerSource {
  preview: string;
  stream: string;
  thumbnail: string;
  version: number;
}

interface Props {
  project: Pick<Project, 'finalVideoPreview' | 'finalVideoThumbnail' | 'noReviews'> & Partial<Pick<Project, 'finalPreviewState'>>;
  /** C§4: a missing preview opens the no-media modal (customer); A§4: the no-video message (staff). */
  audience: 'customer' | 'staff';
  /** What shows when the project has no final video at all. */
  placeholder: ReactNode;
  /** Receives the player's <video> element (the review drives it), null when it goes. */
  onVideo?: (video: HTMLVideoElement | null) => void;
  /** Drawn over the picture (the review's drawings). */
  overlay?: ReactNode;
  /** Plays this instead of the project's final video (the review's chosen older version). */
  source?: PlayerSource;
}

function Note({ testId, title, children, version }: { testId: string; title: string; children?: ReactNode; version?: number }) {
  return (
    <div className="player-placeholder" data-testid={testId} role="status">
      <Icon name="film" size={40} />
      <strong>{title}</strong>
      {children && <p>{children}</p>}
      {version !== undefined && version > 0 && <span className="version">Version {String(version).padStart(2, '0')}</span>}
    </div>
  );
}

/**
 * The final video of a project for either portal: the player once the video is available
 * (HLS stream, MP4 beside it), "being processed" while the pipeline works on it (checked again
 * every 5 s), and the spec's message when it is missing from storage.
 */
export function FinalVideo({ project: given, audience, placeholder, onVideo, overlay, source }: Props) {
  const project = source ? { finalVideoPreview: source.preview, finalVideoThumbnail: source.thumbnail, noReviews: source.version } : given;
  const preview = project.finalVideoPreview;
  // The project's word on its preview (issue 36): the player looks again as soon as it changes,
  // so it plays the cut Send to review sends, not "being processed" or the cut before.
  const availability = useMediaAvailability(preview, source ? undefined : given.finalPreviewState);
  const [modalClosed, setModalClosed] = useState<string | null>(null);
  if (!preview) return <>{placeholder}</>;
  if (availability === 'ready') {
    return (
      <VideoPlayer
        src={preview}
        hlsSrc={source ? source.stream : siblingMediaUrl(preview, 'stream')}
        poster={project.finalVideoThumbnail}
        version={project.noReviews}
        onVideo={onVideo}
        overlay={overlay}
      />
    );
  }
  if (availability === 'missing') {
    if (audience === 'staff') {
      return (
        <Note testId="no-video" title="The video is not available" version={project.noReviews}>
          The final video file was not found or could not be processed. Upload it again.
        </Note>
      );
    }
    return (
      <>
        <Note testId="video-missing" title="No media" version={project.noReviews}>
          The video is not available right now.
        </Note>
        {modalClosed !== preview && (
          <Modal title="No media" onClose={() => setModalClosed(preview)}>
            <p data-testid="no-media-modal">
              We could not find the video of this project. Our team has been told; please check again later or contact support.
            </p>
          </Modal>
        )}
      </>
    );
  }
  if (availability === 'processing') {
    return (
      <Note
        testId="video-processing"
        title={audience === 'customer' ? 'Your video is being processed' : 'The video is being processed'}
        version={project.noReviews}
      >
        It will be ready in a few minutes. This page checks again every few seconds.
      </Note>
    );
  }
  return <Note testId="video-checking" title="Loading the video…" version={project.noReviews} />;
}
