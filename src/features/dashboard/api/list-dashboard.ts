import { DashboardPageStruct, type DashboardSort } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export type DashboardTab = 'active' | 'archived' | 'hidden';

/** One page of the board; `after` is the `nextCursor` of the page before (null for the first). */
export async function listDashboard(tab: DashboardTab, sort: DashboardSort, order: 'asc' | 'desc', after: string | null, limit: number) {
  const query = { limit, sort, order, [tab]: true, ...(after !== null && { after }) };
  const { data } = await api('GET', '/projects', { query, struct: DashboardPageStruct });
  return { projects: data.projects, nextCursor: data.nextCursor ?? null };
}
