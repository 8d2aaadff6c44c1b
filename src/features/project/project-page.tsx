import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useRef, useState } from 'react';
import { useParams } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { canManageShareLinks } from '@/domain/share-links.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useProjectPage } from '@/shared/project/use-project-page.ts';
import { ReviewProvider } from '@/shared/review/review-context.tsx';
import { ReviewPanel } from '@/shared/review/review-panel.tsx';
import { ReviewTimeline } from '@/shared/review/review-timeline.tsx';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { getProject } from '@/shared/project/api/get-project.ts';
import { updateProject } from '@/shared/project/api/update-project.ts';
import { AssetSections, type AssetState } from './components/asset-sections.tsx';
import { BriefForm, type BriefHandle } from './components/brief-form.tsx';
import { FinalDownloads } from './components/final-downloads.tsx';
import { ProjectFacts } from './components/project-facts.tsx';
import { ReviewActions } from './components/review-actions.tsx';
import { ShareReview } from './components/share-review.tsx';
import { SendToEditing } from './components/send-to-editing.tsx';
import { StatusBanner } from './components/status-banner.tsx';
import { VideoArea } from './components/video-area.tsx';

const renameProject = (id: number, name: string) => updateProject(id, { name });
/** In review without a playable video: processing ends, or staff deliver. */
const awaitingReviewVideo = (project: Project) => project.status.name === 'IN_REVIEW' && !project.finalVideoPreview;

/** /user/project/{id}: status, video, actions, brief and footage (C§2). */
export function ProjectPage() {
  const { id } = useParams<{ id: string }>();
  const me = useAtomValue(meAtom);
  const { project, setProject, missing } = useProjectPage(Number(id), me?.role.name, getProject, renameProject, awaitingReviewVideo);
  const [assets, setAssets] = useState<AssetState>({ uploading: false, incompleteClips: 0, assetCount: null });
  const brief = useRef<BriefHandle>(null);
  // Bumped each time Send to editing finds incomplete clips: their zones show why (C§5).
  const [clipsCheck, setClipsCheck] = useState(0);
  const prepareBrief = useCallback(async () => (brief.current ? brief.current.prepareForSending() : null), []);

  if (missing) return <EmptyState title="Project not found">{missing}</EmptyState>;
  if (!project)
    return (
      <div className="center-block">
        <Spinner />
      </div>
    );
  const status = project.status.name;
  const finished = status === 'APPROVED' || status === 'ARCHIVED';
  // Comments beside the player from review on (read-only once approved).
  const reviewing = status === 'IN_REVIEW' || finished;

  return (
    <div className="project-layout">
      <StatusBanner project={project} />
      <ReviewProvider project={project} enabled={reviewing}>
        <div className={`project-main${reviewing ? ' with-review' : ''}`}>
          <div className="project-player">
            <VideoArea project={project} />
            {reviewing && <ReviewTimeline />}
            {/* While reviewing, the comments take the side: the facts and the brief go under the player. */}
            {reviewing && <ProjectFacts project={project} />}
            {reviewing && <BriefForm key={`${project.id}-${status}`} ref={brief} project={project} onSaved={setProject} />}
          </div>
          <div className="project-side">
            {status === 'OPENED' && (
              <SendToEditing
                project={project}
                assets={assets}
                onSent={setProject}
                prepareBrief={prepareBrief}
                onIncompleteClips={() => setClipsCheck((n) => n + 1)}
              />
            )}
            {status === 'IN_REVIEW' && (
              <ReviewActions
                project={project}
                onChanged={setProject}
                share={
                  me &&
                  canManageShareLinks(
                    { kind: 'member', role: me.role.name, userId: me.id, organizationId: me.organizationId },
                    { organizationId: project.organization.id },
                  ) ? (
                    <ShareReview projectId={project.id} canShare={me.impersonatedBy === null} />
                  ) : undefined
                }
              />
            )}
            {finished && <FinalDownloads project={project} />}
            {reviewing && <ReviewPanel />}
            {!reviewing && status !== 'OPENED' && <ProjectFacts project={project} />}
            {!reviewing && <BriefForm key={`${project.id}-${status}`} ref={brief} project={project} onSaved={setProject} />}
          </div>
        </div>
      </ReviewProvider>
      <AssetSections project={project} locked={status !== 'OPENED'} onStateChange={setAssets} clipsCheck={clipsCheck} />
    </div>
  );
}
