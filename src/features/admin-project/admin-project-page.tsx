import { useAtomValue } from '@/lib/state.ts';
import type { ReactNode } from 'react';
import { useParams } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { decide } from '@/domain/project-rules.ts';
import { STAFF_STATUS_LABELS } from '@/domain/project-status.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fullName, plural } from '@/lib/format.ts';
import { useMutation } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useProjectPage } from '@/shared/project/use-project-page.ts';
import { Button } from '@/ui/button.tsx';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { Icon } from '@/ui/icons.tsx';
import { SlaBadge } from '@/ui/sla-badge.tsx';
import { FinalVideo } from '@/shared/media/final-video.tsx';
import { BriefPdfButton, ZipDownloadButtons } from '@/shared/media/project-downloads.tsx';
import { getProject } from '@/shared/project/api/get-project.ts';
import { ReviewProvider } from '@/shared/review/review-context.tsx';
import { ReviewPanel } from '@/shared/review/review-panel.tsx';
import { useReviewPlayer } from '@/shared/review/review-player.tsx';
import { ReviewTimeline } from '@/shared/review/review-timeline.tsx';
import { runProjectAction, type StaffProjectAction } from './api/project-action.ts';
import { updateProject } from '@/shared/project/api/update-project.ts';
import { AssetsPanel } from './components/assets-panel.tsx';
import { ManifestButton } from './components/manifest-button.tsx';
import { FinalVideoUpload } from './components/final-video-upload.tsx';
import { LinkRows } from './components/link-rows.tsx';
import { ReviewPeriodField } from './components/review-period.tsx';
import { pathTo } from '@/domain/pages.ts';

const renameProject = (id: number, name: string) => updateProject(id, { name });
/** The delivered video is being processed: its preview appears when the job ends (Send to review waits for it). */
const processingVideo = (project: Project) => Boolean(project.finalVideoPath && (!project.finalVideoPreview || project.finalPreviewState === 'processing'));

/** The final video, driven by the review (frame stepping, seeking, drawings). */
function StaffVideo({ project, placeholder }: { project: Project; placeholder: ReactNode }) {
  return <FinalVideo project={project} audience="staff" placeholder={placeholder} {...useReviewPlayer()} />;
}

/** /project/{id} for staff (A§2): status, timer, final video, links, brief and assets. */
export function AdminProjectPage() {
  const { id } = useParams<{ id: string }>();
  const me = useAtomValue(meAtom);
  const manager = isManagerRole(me?.role.name);
  const { project, setProject, missing } = useProjectPage(Number(id), me?.role.name, getProject, renameProject, processingVideo);
  const action = useMutation({ mutationFn: (name: StaffProjectAction) => runProjectAction(Number(id), name), onSuccess: setProject });
  const busy = action.isPending ? action.variables : null;
  const error = action.error ? errorMessage(action.error) : null;
  const act = (name: StaffProjectAction) => action.mutate(name);

  if (missing) return <EmptyState title="Project not found">{missing}</EmptyState>;
  if (!project || !me)
    return (
      <div className="center-block">
        <Spinner />
      </div>
    );
  const status = project.status.name;
  const facts = { status, hasFinalPreview: Boolean(project.finalVideoPreview), hasEditor: Boolean(project.editor), finalPreview: project.finalPreviewState };
  // A§3, issue 36: enabled only in progress or paused once the final video's preview is ready; otherwise why not.
  const sendToReview = decide('send-to-review', me.role.name, facts);
  const sendToReviewHint = sendToReview.allowed ? null : sendToReview.message;

  return (
    <div className="admin-project">
      <div className="admin-project-head card">
        <span className={`status-pill s-${status.toLowerCase()}`} data-testid="project-status">
          {STAFF_STATUS_LABELS[status]}
        </span>
        <div className="head-timer">
          <span className="muted-label">Time left</span>
          <SlaBadge project={{ ...project, status }} refreshMs={1_000} />
          {manager && (status === 'IN_EDITING' || status === 'PAUSED') && (
            <Button
              variant="secondary"
              className="btn-small"
              busy={busy === 'pause' || busy === 'resume'}
              onClick={() => act(status === 'PAUSED' ? 'resume' : 'pause')}
            >
              {status === 'PAUSED' ? '▶ Resume' : '❚❚ Pause'}
            </Button>
          )}
        </div>
        <div className="head-meta">
          <span>
            <span className="muted-label">Version</span> <strong>{String(project.noReviews).padStart(2, '0')}</strong>
          </span>
          <span>
            <span className="muted-label">Organization</span> <a href={pathTo('organization', { id: project.organization.id })}>{project.organization.name}</a>
          </span>
          <span>
            <span className="muted-label">Editor</span> {fullName(project.editor) || '—'}
          </span>
        </div>
        {manager && (
          <div className="head-actions">
            <FinalVideoUpload project={project} onDelivered={setProject} />
            {status === 'APPROVED' ? (
              <Button variant="primary" busy={busy === 'restore_to_review'} onClick={() => act('restore_to_review')}>
                Restore to review
              </Button>
            ) : (
              <span className="send-to-review">
                <Button
                  variant="success"
                  busy={busy === 'submit'}
                  disabled={!sendToReview.allowed}
                  title={sendToReviewHint ?? undefined}
                  aria-describedby={sendToReviewHint ? 'send-to-review-hint' : undefined}
                  onClick={() => act('submit')}
                >
                  Send to review
                </Button>
                {sendToReviewHint && (
                  <small className="field-hint" id="send-to-review-hint" data-testid="send-to-review-hint">
                    {sendToReviewHint}
                  </small>
                )}
              </span>
            )}
          </div>
        )}
      </div>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <ReviewProvider project={project} enabled>
        <div className="admin-project-grid">
          <div className="admin-project-video">
            <StaffVideo
              project={project}
              placeholder={
                <div className="player-placeholder" data-testid="no-video">
                  <Icon name="film" size={40} />
                  <strong>No final video yet</strong>
                  <p>{manager ? 'Upload the edited video to send it to the customer for review.' : 'The final video shows here once it is uploaded.'}</p>
                </div>
              }
            />
            <ReviewTimeline />
            <ReviewPanel exportable layout="below" />
          </div>
          <div className="admin-project-side">
            <section className="card" aria-label="Review and links">
              {status === 'IN_REVIEW' && manager && <ReviewPeriodField project={project} onSaved={setProject} />}
              {status === 'IN_REVIEW' && !manager && (
                <p>
                  <span className="muted-label">Review time left</span> <strong>{plural(project.reviewDaysLeft, 'day')}</strong>
                </p>
              )}
              <LinkRows project={project} role={me.role.name} onSaved={setProject} />
            </section>
            <section className="card brief-panel" aria-label="Brief">
              <h2>Brief</h2>
              <dl>
                <dt>Created by</dt>
                <dd>{fullName(project.user)}</dd>
                <dt>Name</dt>
                <dd>{project.name}</dd>
                <dt>Audience</dt>
                <dd>{project.audience}</dd>
                <dt>Goal</dt>
                <dd>{project.goal}</dd>
                <dt>Length</dt>
                <dd>{project.finalVideoLength}</dd>
                <dt>Brief</dt>
                <dd className="brief-text">{project.brief}</dd>
              </dl>
              <BriefPdfButton project={project} />
            </section>
          </div>
        </div>
      </ReviewProvider>
      <AssetsPanel
        project={project}
        actions={
          <>
            <ZipDownloadButtons projectId={project.id} />
            <ManifestButton projectId={project.id} />
          </>
        }
      />
    </div>
  );
}
