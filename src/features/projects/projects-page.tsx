import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { BOARD_SECTIONS } from '@/domain/project-status.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { downloadItems } from '@/shared/media/download-menu.ts';
import { writeStored } from '@/lib/local-store.ts';
import { meAtom } from '@/lib/session-state.ts';
import { NEEDS_CONNECTION, useOffline } from '@/lib/connectivity.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { MoreButton } from '@/ui/data-table.tsx';
import { PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { Icon } from '@/ui/icons.tsx';
import { ProjectCard } from '@/ui/project-card.tsx';
import { deleteProject } from './api/delete-project.ts';
import { duplicateProject } from '@/shared/project/api/duplicate-project.ts';
import { listProjects } from './api/list-projects.ts';

const SECTIONS = [
  { key: 'needsReview', title: 'Needs review', statuses: BOARD_SECTIONS.needsReview, empty: 'Edited videos waiting for your approval appear here.' },
  { key: 'editing', title: 'Editing', statuses: BOARD_SECTIONS.editing, empty: 'Projects our editors are working on appear here.' },
  { key: 'assembly', title: 'Assembly', statuses: BOARD_SECTIONS.assembly, empty: '' },
] as const;

/** Cards fetched per section at a time: the answer stays small however many projects there are. */
const PAGE_SIZE = 24;

type SectionKey = (typeof SECTIONS)[number]['key'];
type Board = Record<SectionKey, { items: Project[]; total: number }>;

/** The projects shown, for the pages that read the stored list. */
function rememberBoard(board: Board): void {
  writeStored('projects', SECTIONS.flatMap((section) => board[section.key].items.map((p) => ({ id: p.id, name: p.name, status: p.status.name }))));
}

/** /user/projects: Needs review, Editing and Assembly (C§2), each paged on its own. */
export function ProjectsPage() {
  const me = useAtomValue(meAtom);
  const offline = useOffline();
  const [, navigate] = useLocation();
  const [board, setBoard] = useState<Board | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [moreBusy, setMoreBusy] = useState<SectionKey | null>(null);
  // How many cards each section shows, so a reload (after a duplicate or delete) keeps them.
  const shown = useRef<Record<SectionKey, number>>({ needsReview: PAGE_SIZE, editing: PAGE_SIZE, assembly: PAGE_SIZE });

  const load = useCallback(async () => {
    if (!me?.organizationId) return;
    const organizationId = me.organizationId;
    try {
      const pages = await Promise.all(SECTIONS.map((section) => listProjects(organizationId, section.key, 0, Math.max(PAGE_SIZE, shown.current[section.key]))));
      const next = Object.fromEntries(SECTIONS.map((section, index) => [section.key, { items: pages[index]!.projects, total: pages[index]!.total }])) as Board;
      setBoard(next);
      rememberBoard(next);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [me?.organizationId]);
  useEffect(() => void load(), [load]);

  const loadMore = async (key: SectionKey) => {
    if (!me?.organizationId || !board) return;
    setMoreBusy(key);
    try {
      const page = await listProjects(me.organizationId, key, board[key].items.length, PAGE_SIZE);
      setBoard((current) => {
        if (!current) return current;
        // A project created meanwhile shifts the pages: skip the cards already shown.
        const known = new Set(current[key].items.map((p) => p.id));
        const items = [...current[key].items, ...page.projects.filter((p) => !known.has(p.id))];
        shown.current[key] = items.length;
        const next = { ...current, [key]: { items, total: page.total } };
        rememberBoard(next);
        return next;
      });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setMoreBusy(null);
    }
  };

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

  if (!board) return error ? <div className="form-error">{error}</div> : <div className="center-block"><Spinner /></div>;

  return (
    <>
      <PageHeader title="Projects" subtitle="Everything your organization is producing, by stage." />
      {error && <div className="form-error">{error}</div>}
      {SECTIONS.map((section) => {
        const { items, total } = board[section.key];
        return (
          <section className="section" key={section.key} aria-label={section.title}>
            <div className="section-title">
              <h2>{section.title}</h2>
              <span className="count-pill">{total}</span>
            </div>
            <div className="card-grid">
              {section.key === 'assembly' &&
                (offline ? (
                  <span className="create-tile is-offline-disabled" role="link" aria-disabled="true" title={NEEDS_CONNECTION}>
                    <span className="plus">
                      <Icon name="plus" size={26} />
                    </span>
                    Create a project
                  </span>
                ) : (
                  <Link href="/user/create-project" className="create-tile">
                    <span className="plus">
                      <Icon name="plus" size={26} />
                    </span>
                    Create a project
                  </Link>
                ))}
              {items.map((project) => (
                <div key={project.id} className={busyId === project.id ? 'is-loading' : ''}>
                  <ProjectCard
                    project={project}
                    onOpen={() => navigate(`/user/project/${project.id}`)}
                    menu={[
                      ...downloadItems(project),
                      { label: 'Duplicate', onSelect: () => void duplicate(project), ...(offline && { disabled: true, hint: NEEDS_CONNECTION }) },
                      ...(section.key === 'assembly' ? [{ label: 'Delete', danger: true, onSelect: () => setToDelete(project), ...(offline && { disabled: true, hint: NEEDS_CONNECTION }) }] : []),
                    ]}
                  />
                </div>
              ))}
            </div>
            {items.length === 0 && section.empty && <p className="section-empty">{section.empty}</p>}
            <MoreButton visible={items.length < total} busy={moreBusy === section.key} onClick={() => void loadMore(section.key)}>
              Show more ({total - items.length})
            </MoreButton>
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
