import { useSetAtom } from '@/lib/state.ts';
import { useCallback, useEffect, useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { can } from '@/domain/project-rules.ts';
import type { RoleName } from '@/domain/roles.ts';
import { projectNameRule } from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { pageTitleAtom } from './page-title.ts';

/**
 * Loads a project for a project page and puts its title in the top bar, editable in place
 * while the state machine allows renaming (C§2, A§2).
 */
export function useProjectPage(id: number, role: RoleName | undefined, load: (id: number) => Promise<Project>, rename: (id: number, name: string) => Promise<Project>) {
  const [project, setProject] = useState<Project | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const setPageTitle = useSetAtom(pageTitleAtom);

  const reload = useCallback(async () => {
    try {
      setProject(await load(id));
    } catch (e) {
      setMissing(e instanceof ApiError && e.status === 404 ? 'This project does not exist or was deleted.' : errorMessage(e));
    }
  }, [id, load]);
  useEffect(() => void reload(), [reload]);

  useEffect(() => {
    if (!project || !role) return;
    const editable = can('rename', role, { status: project.status.name, hasFinalPreview: false, hasEditor: false });
    setPageTitle({
      title: project.name,
      validate: projectNameRule,
      ...(editable && {
        onSubmit: async (name: string) => {
          try {
            setProject(await rename(project.id, name));
            return undefined;
          } catch (e) {
            return fieldError(e, 'name');
          }
        },
      }),
    });
  }, [project, role, rename, setPageTitle]);
  useEffect(() => () => setPageTitle(null), [setPageTitle]);

  return { project, setProject, missing, reload };
}
