import * as operations from '@/domain/contract/projects.ts';
import type { DashboardSort } from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export type DashboardTab = 'active' | 'archived' | 'hidden';

/** One page of the board; `after` is the `nextCursor` of the page before (null for the first). */
export async function listDashboard(tab: DashboardTab, sort: DashboardSort, order: 'asc' | 'desc', after: string | null, limit: number) {
  const query = { limit, sort, order, [tab]: true, ...(after !== null && { after }) };
  const { data } = await call(operations.listDashboard, { query });
  return { projects: data.projects, nextCursor: data.nextCursor ?? null };
}
