import { listOrganizations } from '@/shared/organization/api/list-organizations.ts';

/** Organizations by credits end date, soonest first (the credits tab keeps those under 91 days). */
export function listByExpiry() {
  return listOrganizations({ start: 0, limit: 100, sort: 'expiry', order: 'asc' });
}
