import type { DashboardSort } from '@/domain/contract/projects.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import type { DashboardTab } from './list-dashboard.ts';

/** The keys only the dashboard feature reads, each under a shared prefix so other features' changes reach them. */
export const dashboardKeys = {
  list: (tab: DashboardTab, sort: DashboardSort, order: 'asc' | 'desc') => [...queryKeys.dashboard(), tab, sort, order] as const,
  // Under the staff editors key: the Editors page (a feature this one cannot import) invalidates
  // `staff('editors')` after an add, edit or delete, and that refreshes this picker too.
  assignableEditors: () => [...queryKeys.staff('editors'), 'assignable'] as const,
  // Under the organization: a project change invalidates its organization, which refreshes this table.
  organizationProjects: (organizationId: number) => [...queryKeys.organizationProjects(organizationId), 'staff'] as const,
};
