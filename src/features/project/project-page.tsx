import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { can } from '@/domain/project-rules.ts';
import { projectNameRule } from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { pageTitleAtom } from '@/lib/page-title.ts';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { getProject } from './api/get-project.ts';
import { updateProject } from './api/update-project.ts';
import { AssetSections, type AssetState } from './components/asset-sections.tsx';
import { BriefForm } from './components/brief-form.tsx';
import { ReviewActions } from './components/review-actions.tsx';
import { SendToEditing } from './components/send-to-editing.tsx';
import { StatusBanner } from './components/status-banner.tsx';
import { VideoArea } from './components/video-area.tsx';

/** /user/project/{id}: status, video, actions, brief and footage (C§2). */
export function ProjectPage() {
  const { id } = useParams<{ id: string }>();
  const [project, setProject] = useState<Project | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [assets, setAssets] = useState<AssetState>({ uploading: false, incompleteClips: 0, assetCount: null });
  const setPageTitle = useSetAtom(pageTitleAtom);

  const load = useCallback(async () => {
    try {
      setProject(await getProject(Number(id)));
    } catch (e) {
      setMissing(e instanceof ApiError && e.status === 404 ? 'This project does not exist or was deleted.' : errorMessage(e));
    }
  }, [id]);
  useEffect(() => void load(), [load]);

  // The title is edited in the top bar; it is locked once the project is finished or gone (C§4).
  useEffect(() => {
    if (!project) return;
    const editable = can('rename', 'OWNER', { status: project.status.name, hasFinalPreview: false, hasEditor: false });
    setPageTitle({
      title: project.name,
      validate: projectNameRule,
      ...(editable && {
        onSubmit: async (name: string) => {
          try {
            setProject(await updateProject(project.id, { name }));
            return undefined;
          } catch (e) {
            return e instanceof ApiError ? (e.fields.name ?? e.message) : errorMessage(e);
          }
        },
      }),
    });
  }, [project, setPageTitle]);
  useEffect(() => () => setPageTitle(null), [setPageTitle]);

  if (missing) return <EmptyState title="Project not found">{missing}</EmptyState>;
  if (!project) return <div className="center-block"><Spinner /></div>;
  const status = project.status.name;

  return (
    <div className="project-layout">
      <StatusBanner project={project} />
      <div className="project-main">
        <VideoArea project={project} onRetry={() => void load()} />
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
