import type { FastifyInstance } from 'fastify';
import createUserRoute from './create.ts';
import deleteUserRoutes from './delete.ts';
import listUsersRoutes from './list.ts';
import updateUserRoutes from './update.ts';

/** Users of both portals: invite, list, edit, enable, delete (C§7, A§7). */
export default async function userRoutes(app: FastifyInstance) {
  for (const routes of [listUsersRoutes, createUserRoute, updateUserRoutes, deleteUserRoutes]) {
    await app.register(routes);
  }
}
