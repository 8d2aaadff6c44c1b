import type { FastifyRequest } from 'fastify';
import { isManagerRole, isStaffRole } from '../../src/domain/roles.ts';
import { forbidden, notFound } from '../http-error.ts';
import { authenticate, type AuthContext } from '../plugins/auth.ts';

/**
 * A staff caller. An impersonation token is refused on every staff route: while an admin is
 * signed in as a customer, the token speaks for the customer only. `managers` admits
 * SUPERADMIN and ADMIN only (A§6: what the UI hides from an EDITOR, the server refuses).
 */
export async function requireStaff(request: FastifyRequest, options: { managers?: boolean } = {}): Promise<AuthContext> {
  const auth = await authenticate(request);
  if (auth.impersonatorId !== null || !isStaffRole(auth.user.role)) throw forbidden();
  if (options.managers && !isManagerRole(auth.user.role)) throw forbidden();
  return auth;
}

/** Staff read any organization; a customer only its own (another one does not exist: 404). */
export function assertOrganizationVisible(auth: AuthContext, organizationId: number): void {
  if (isStaffRole(auth.user.role)) return;
  if (auth.user.organizationId !== organizationId) throw notFound();
}
