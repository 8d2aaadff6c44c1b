import type { Impersonation } from '../../src/domain/contract/impersonations.ts';
import type { Db } from '../db/connect.ts';
import { impersonationsRepo } from '../repositories/impersonations.ts';

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/**
 * GET impersonations (issue 36 item 10): the Log In As trail a superadmin reads, newest first.
 * A session with no end recorded ended by expiry once its token's expiry has passed; one
 * recorded before the trail kept ends says `unknown`.
 */
export async function listImpersonations(db: Db, start: number, limit: number, now = new Date()): Promise<Impersonation[]> {
  const rows = await impersonationsRepo(db).list(start, limit);
  return rows.map((r) => {
    const expired = r.expiresAt !== null && r.expiresAt.getTime() <= now.getTime();
    const endedBy = r.endedAt !== null ? 'staff' : r.expiresAt === null ? 'unknown' : expired ? 'expiry' : null;
    const endedAt = r.endedAt ?? (endedBy === 'expiry' ? r.expiresAt : null);
    return {
      id: r.id,
      staff: { id: r.adminId, name: fullName(r.staffFirstName, r.staffLastName) },
      organization: { id: r.organizationId, name: r.organizationName },
      customer:
        r.customerUserId === null ? null : { id: r.customerUserId, name: fullName(r.customerFirstName, r.customerLastName), email: r.customerEmail ?? '' },
      startedAt: r.createdAt.toISOString(),
      endedAt: endedAt?.toISOString() ?? null,
      endedBy,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      clientAddress: r.clientAddress,
    };
  });
}
