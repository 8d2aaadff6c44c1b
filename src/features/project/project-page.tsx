import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { useParams } from 'wouter';
import { meAtom } from '@/lib/session-state.ts';
import { useProjectPage } from '@/shared/project/use-project-page.ts';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { getProject } from '@/shared/project/api/get-project.ts';
import { updateProject } from '@/shared/project/api/update-project.ts';

const renameProject = (id: number, name: string) => updateProject(id, { name });
import { AssetSections, type AssetState } from './components/asset-sections.tsx';
import { BriefForm } from './components/brief-form.tsx';
import { ReviewActions } from './components/review-actions.tsx';
import { SendToEditing } from './components/send-to-editing.tsx';
import { StatusBanner } from './components/status-banner.tsx';
import { VideoArea } from './components/video-area.tsx';

/** /user/project/{id}: status, video, actions, brief and footage (C§2). */
export function ProjectPage() {
  const { id } = useParams<{ id: string }>();
  const me = useAtomValue(meAtom);
  const { project, setProject, missing, reload } = useProjectPage(Number(id), me?.role.name, getProject, renameProject);
  const [assets, setAssets] = useState<AssetState>({ uploading: false, incompleteClips: 0, assetCount: null });

  if (missing) return <EmptyState title="Project not found">{missing}</EmptyState>;
  if (!project) return <div className="center-block"><Spinner /></div>;
  const status = project.status.name;

  return (
    <div className="project-layout">
      <StatusBanner project={project} />
      <div className="project-main">
        <VideoArea project={project} onRetry={() => void reload()} />
        <div className="project-side">
          {status === 'OPENED' && <SendToEditing project={project} assets={assets} onSent={setProject} />}
          {status === 'IN_REVIEW' && <ReviewActions project={project} onChanged={setProject} />}
          <BriefForm key={`${project.id}-${status}`} project={project} onSaved={setProject} />
        </div>
      </div>
      <AssetSections project={project} locked={status !== 'OPENED'} onStateChange={setAssets} />
    </div>
  );
}
