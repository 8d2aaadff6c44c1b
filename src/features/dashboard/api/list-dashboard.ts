import { DashboardPageStruct, type DashboardSort } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export type DashboardTab = 'active' | 'archived' | 'hidden';

export async function listDashboard(tab: DashboardTab, sort: DashboardSort, order: 'asc' | 'desc', start: number, limit: number) {
  const query = { start, limit, sort, order, [tab]: true };
  return (await api('GET', '/projects', { query, struct: DashboardPageStruct })).data.projects;
}
