import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../src/lib/query.ts';
import { queryKeys } from '../../src/shared/query/keys.ts';
import { expiringKey } from '../../src/features/admin-settings/api/keys.ts';
import { customersListKey } from '../../src/features/customers/api/keys.ts';
import { dashboardKeys } from '../../src/features/dashboard/api/keys.ts';
import { editorsListKey } from '../../src/features/editors/api/keys.ts';
import { onboardingListKey } from '../../src/features/onboarding/api/keys.ts';
import { organizationKeys } from '../../src/features/organization/api/keys.ts';

/** Whether invalidating `by` marks the answer kept under `key` for reading again. */
async function refreshes(by: readonly unknown[], key: readonly unknown[]): Promise<boolean> {
  queryClient.setQueryData(key, { kept: true });
  await queryClient.invalidateQueries({ queryKey: by });
  return queryClient.getQueryState(key)?.isInvalidated ?? false;
}

describe('the staff pages keep their reads under the keys their changes invalidate', () => {
  afterEach(() => queryClient.clear());

  it('an assignment or a status change (the dashboard) refreshes every tab and sort of the dashboard', async () => {
    for (const key of [dashboardKeys.list('active', 'timer', 'asc'), dashboardKeys.list('hidden', 'name', 'desc')]) {
      expect(await refreshes(queryKeys.dashboard(), key)).toBe(true);
    }
  });

  it("a project change (its organization) refreshes the organization page's projects, not another organization's", async () => {
    expect(await refreshes(queryKeys.organization(7), dashboardKeys.organizationProjects(7))).toBe(true);
    expect(await refreshes(queryKeys.organization(8), dashboardKeys.organizationProjects(7))).toBe(false);
  });

  it("an editor added, edited or deleted (the staff editors) refreshes the Editors page and the dashboard's picker", async () => {
    expect(await refreshes(queryKeys.staff('editors'), editorsListKey())).toBe(true);
    expect(await refreshes(queryKeys.staff('editors'), dashboardKeys.assignableEditors())).toBe(true);
    expect(await refreshes(queryKeys.staff('editors'), customersListKey('organization', 'asc'))).toBe(false);
  });

  it('a credits change (the organization and the customers) refreshes every part of the organization page and the credits tab', async () => {
    for (const key of [organizationKeys.detail(7), organizationKeys.credits(7), organizationKeys.subscriptions(7), organizationKeys.usersPage(7, 4)]) {
      expect(await refreshes(queryKeys.organization(7), key)).toBe(true);
    }
    expect(await refreshes(queryKeys.organizationBilling(7), organizationKeys.detail(7))).toBe(false);
    expect(await refreshes(queryKeys.staff('customers'), expiringKey())).toBe(true);
    expect(await refreshes(queryKeys.staff('customers'), customersListKey('expiry', 'desc'))).toBe(true);
  });

  it('an onboarding change refreshes its three lists and leaves the customers alone', async () => {
    for (const list of ['in-progress', 'completed', 'trial'] as const) {
      expect(await refreshes(queryKeys.staff('onboarding'), onboardingListKey(list))).toBe(true);
    }
    expect(await refreshes(queryKeys.staff('onboarding'), customersListKey('organization', 'asc'))).toBe(false);
  });
});
