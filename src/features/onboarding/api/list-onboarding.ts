import { ORGANIZATIONS_PAGE_SIZE } from '@/domain/contract/customers.ts';
import { listOrganizations } from '@/shared/organization/api/list-organizations.ts';

/** A§2 onboarding tabs 0 and 1: organizations with statusId 1 (in progress) or 2 (completed), newest first. */
export function listOnboarding(statusId: 1 | 2, start: number) {
  return listOrganizations({ statusId, start, limit: ORGANIZATIONS_PAGE_SIZE, sort: 'createdAt', order: 'desc' });
}
