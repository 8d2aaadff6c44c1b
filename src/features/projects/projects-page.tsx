import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { BOARD_SECTIONS } from '@/domain/project-status.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { downloadItems } from '@/lib/download-menu.ts';
import { writeStored } from '@/lib/local-store.ts';
import { meAtom } from '@/lib/session-state.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { Icon } from '@/ui/icons.tsx';
import { ProjectCard } from '@/ui/project-card.tsx';
import { deleteProject } from './api/delete-project.ts';
import { duplicateProject } from './api/duplicate-project.ts';
import { listProjects } from './api/list-projects.ts';

const SECTIONS = [
  { key: 'needsReview', title: 'Needs review', statuses: BOARD_SECTIONS.needsReview, empty: 'Edited videos waiting for your approval appear here.' },
  { key: 'editing', title: 'Editing', statuses: BOARD_SECTIONS.editing, empty: 'Projects our editors are working on appear here.' },
  { key: 'assembly', title: 'Assembly', statuses: BOARD_SECTIONS.assembly, empty: '' },
] as const;

/** /user/projects: Needs review, Editing and Assembly (C§2). */
export function ProjectsPage() {
  const me = useAtomValue(meAtom);
  const [, navigate] = useLocation();
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const load = useCallback(async () => {
    if (!me?.organizationId) return;
    try {
      const list = await listProjects(me.organizationId);
      setProjects(list);
      writeStored('projects', list.map((p) => ({ id: p.id, name: p.name, status: p.status.name })));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [me?.organizationId]);
  useEffect(() => void load(), [load]);

  const duplicate = async (project: Project) => {
    setBusyId(project.id);
    try {
      await duplicateProject(project.id);
      await load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      // C§8: a failed duplicate clears the loading marker too.
      setBusyId(null);
    }
  };

  if (!projects) return error ? <div className="form-error">{error}</div> : <div className="center-block"><Spinner /></div>;

  return (
    <>
      <PageHeader title="Projects" subtitle="Everything your organization is producing, by stage." />
      {error && <div className="form-error">{error}</div>}
      {SECTIONS.map((section) => {
        const items = projects.filter((p) => (section.statuses as readonly string[]).includes(p.status.name));
        return (
          <section className="section" key={section.key} aria-label={section.title}>
            <div className="section-title">
              <h2>{section.title}</h2>
              <span className="count-pill">{items.length}</span>
            </div>
            <div className="card-grid">
              {section.key === 'assembly' && (
                <Link href="/user/create-project" className="create-tile">
                  <span className="plus">
                    <Icon name="plus" size={26} />
                  </span>
                  Create a project
                </Link>
              )}
              {items.map((project) => (
                <div key={project.id} className={busyId === project.id ? 'is-loading' : ''}>
                  <ProjectCard
                    project={project}
                    onOpen={() => navigate(`/user/project/${project.id}`)}
                    menu={[
                      ...downloadItems(project),
                      { label: 'Duplicate', onSelect: () => void duplicate(project) },
                      ...(section.key === 'assembly' ? [{ label: 'Delete', danger: true, onSelect: () => setToDelete(project) }] : []),
                    ]}
                  />
                </div>
              ))}
            </div>
            {items.length === 0 && section.empty && <p className="section-empty">{section.empty}</p>}
          </section>
        );
      })}
      {toDelete && (
        <ConfirmModal
          title="Delete this project?"
          confirmLabel="Delete"
          cancelLabel="Cancel"
          variant="danger"
          onClose={() => setToDelete(null)}
          onConfirm={async () => {
            try {
              await deleteProject(toDelete.id);
              await load();
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>
            “{toDelete.name}” and its uploaded files will be removed. This cannot be undone.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
