import { useAtomValue } from '@/lib/state.ts';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { BoardSectionKey, Project } from '@/domain/contract/projects.ts';
import { BOARD_SECTIONS } from '@/domain/project-status.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@/lib/query.ts';
import { downloadItems } from '@/shared/media/download-menu.ts';
import { queryKeys } from '@/shared/query/keys.ts';
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
import { boardSectionKey } from './api/keys.ts';
import { listProjects } from './api/list-projects.ts';
import { pathTo } from '@/domain/pages.ts';

const SECTIONS = [
  { key: 'needsReview', title: 'Needs review', statuses: BOARD_SECTIONS.needsReview, empty: 'Edited videos waiting for your approval appear here.' },
  { key: 'editing', title: 'Editing', statuses: BOARD_SECTIONS.editing, empty: 'Projects our editors are working on appear here.' },
  { key: 'assembly', title: 'Assembly', statuses: BOARD_SECTIONS.assembly, empty: '' },
] as const;

/** Cards fetched per section at a time: the answer stays small however many projects there are. */
const PAGE_SIZE = 24;

type SectionKey = (typeof SECTIONS)[number]['key'];
type Section = { items: Project[]; total: number };
type Board = Record<SectionKey, Section>;

/** The projects shown, for the pages that read the stored list. */
function rememberBoard(board: Board): void {
  writeStored(
    'projects',
    SECTIONS.flatMap((section) => board[section.key].items.map((p) => ({ id: p.id, name: p.name, status: p.status.name }))),
  );
}

/**
 * One section, a page of cards at a time. A refresh (after a duplicate or a delete) reads
 * again every page already shown, so the section keeps as many cards as it had.
 */
function useBoardSection(organizationId: number | null, section: BoardSectionKey) {
  const query = useInfiniteQuery({
    queryKey: boardSectionKey(organizationId ?? 0, section),
    queryFn: ({ pageParam }) => listProjects(organizationId!, section, pageParam, PAGE_SIZE),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.projects.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
    enabled: organizationId !== null,
  });
  const { data } = query;
  const shown = useMemo<Section | null>(() => {
    if (!data) return null;
    // A project created meanwhile shifts the pages: a card already shown is not shown twice.
    const seen = new Set<number>();
    const items: Project[] = [];
    for (const project of data.pages.flatMap((page) => page.projects)) {
      if (seen.has(project.id)) continue;
      seen.add(project.id);
      items.push(project);
    }
    return { items, total: data.pages[data.pages.length - 1]!.total };
  }, [data]);
  return { shown, error: query.error, more: query.fetchNextPage, moreBusy: query.isFetchingNextPage };
}

/** /user/projects: Needs review, Editing and Assembly (C§2), each paged on its own. */
export function ProjectsPage() {
  const me = useAtomValue(meAtom);
  const organizationId = me?.organizationId ?? null;
  const offline = useOffline();
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const sections = {
    needsReview: useBoardSection(organizationId, 'needsReview'),
    editing: useBoardSection(organizationId, 'editing'),
    assembly: useBoardSection(organizationId, 'assembly'),
  };
  const needsReview = sections.needsReview.shown;
  const editing = sections.editing.shown;
  const assembly = sections.assembly.shown;
  const board = needsReview && editing && assembly ? { needsReview, editing, assembly } : null;
  const readError = SECTIONS.map((section) => sections[section.key].error).find(Boolean);
  const shownError = error ?? (readError ? errorMessage(readError) : null);
  useEffect(() => {
    if (needsReview && editing && assembly) rememberBoard({ needsReview, editing, assembly });
  }, [needsReview, editing, assembly]);

  // The board, the library and the top bar all sit under the organization's key; the staff
  // dashboard lists the project too (a staff member signed in as this customer goes back to it).
  const refreshOrganization = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.organization(organizationId!) }),
      client.invalidateQueries({ queryKey: queryKeys.dashboard() }),
    ]);
  const duplicateMutation = useMutation({ mutationFn: (project: Project) => duplicateProject(project.id), onSuccess: refreshOrganization });
  const deleteMutation = useMutation({ mutationFn: (project: Project) => deleteProject(project.id), onSuccess: refreshOrganization });

  const loadMore = async (key: SectionKey) => {
    const result = await sections[key].more();
    if (result.error) setError(errorMessage(result.error));
  };

  const duplicate = async (project: Project) => {
    setBusyId(project.id);
    try {
      await duplicateMutation.mutateAsync(project);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      // C§8: a failed duplicate clears the loading marker too.
      setBusyId(null);
    }
  };

  if (!board)
    return shownError ? (
      <div className="form-error">{shownError}</div>
    ) : (
      <div className="center-block">
        <Spinner />
      </div>
    );

  return (
    <>
      <PageHeader title="Projects" subtitle="Everything your organization is producing, by stage." />
      {shownError && <div className="form-error">{shownError}</div>}
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
                  <Link href={pathTo('createProject')} className="create-tile">
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
                    onOpen={() => navigate(pathTo('project', { id: project.id }))}
                    menu={[
                      ...downloadItems(project),
                      { label: 'Duplicate', onSelect: () => void duplicate(project), ...(offline && { disabled: true, hint: NEEDS_CONNECTION }) },
                      ...(section.key === 'assembly'
                        ? [{ label: 'Delete', danger: true, onSelect: () => setToDelete(project), ...(offline && { disabled: true, hint: NEEDS_CONNECTION }) }]
                        : []),
                    ]}
                  />
                </div>
              ))}
            </div>
            {items.length === 0 && section.empty && <p className="section-empty">{section.empty}</p>}
            <MoreButton visible={items.length < total} busy={sections[section.key].moreBusy} onClick={() => void loadMore(section.key)}>
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
              await deleteMutation.mutateAsync(toDelete);
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>“{toDelete.name}” and its uploaded files will be removed. This cannot be undone.</p>
        </ConfirmModal>
      )}
    </>
  );
}
