import type { FastifyInstance } from 'fastify';
import { DashboardQueryStruct } from '../../../src/domain/contract/projects.ts';
import { parse } from '../../http-error.ts';
import { dashboardPage } from '../../services/dashboard.ts';

export default async function dashboardRoute(app: FastifyInstance) {
  // A§7 GET projects?start&limit&active&archived&hidden, with server-side sorting that holds across pages;
  // `after` (issue 14) continues from the page before's `nextCursor` at the cost of a first page.
  app.get('/projects', { config: { access: 'staff' } }, async (request) => {
    const query = parse(DashboardQueryStruct, request.query);
    return { data: await dashboardPage(app.ctx.db, query) };
  });
}
