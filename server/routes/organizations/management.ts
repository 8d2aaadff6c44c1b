import type { FastifyInstance } from 'fastify';
import adminLoginRoute from './admin-login.ts';
import organizationCreditsRoutes from './credits.ts';
import impersonationRoutes from './impersonations.ts';
import organizationListRoute from './list.ts';
import organizationUpdateRoutes from './update.ts';
import organizationUsersRoute from './users.ts';

/** Organizations as staff manage them, plus their users and credits (C§7, A§7). */
export default async function organizationManagementRoutes(app: FastifyInstance) {
  for (const routes of [
    organizationListRoute,
    organizationUpdateRoutes,
    adminLoginRoute,
    impersonationRoutes,
    organizationCreditsRoutes,
    organizationUsersRoute,
  ]) {
    await app.register(routes);
  }
}
