import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../src/lib/query.ts';
import { queryKeys } from '../../src/shared/query/keys.ts';
import { libraryKey } from '../../src/features/library/api/keys.ts';
import { boardSectionKey } from '../../src/features/projects/api/keys.ts';
import { settingsKeys } from '../../src/features/settings/api/keys.ts';

/** Whether invalidating `by` marks the answer kept under `key` for reading again. */
async function refreshes(by: readonly unknown[], key: readonly unknown[]): Promise<boolean> {
  queryClient.setQueryData(key, { kept: true });
  await queryClient.invalidateQueries({ queryKey: by });
  return queryClient.getQueryState(key)?.isInvalidated ?? false;
}

describe('the customer pages keep their reads under the keys their changes invalidate', () => {
  afterEach(() => queryClient.clear());

  it('a delete, a duplicate or a new project (the organization) refreshes the board sections and the library', async () => {
    for (const key of [boardSectionKey(7, 'needsReview'), boardSectionKey(7, 'editing'), boardSectionKey(7, 'assembly'), libraryKey(7)]) {
      expect(await refreshes(queryKeys.organization(7), key)).toBe(true);
      expect(await refreshes(queryKeys.organizationProjects(7), key)).toBe(true);
    }
  });

  it('a purchase or a cancellation (the organization) refreshes credits, subscriptions and the organization of Admin Settings', async () => {
    for (const key of [settingsKeys.credits(7), settingsKeys.subscriptions(7), queryKeys.customerOrganization(7), settingsKeys.users(7)]) {
      expect(await refreshes(queryKeys.organization(7), key)).toBe(true);
    }
  });

  it('a user edit (the users) refreshes the users only, not the billing', async () => {
    expect(await refreshes(queryKeys.organizationUsers(7), settingsKeys.users(7))).toBe(true);
    expect(await refreshes(queryKeys.organizationUsers(7), settingsKeys.credits(7))).toBe(false);
  });

  it("another organization's change leaves this one's reads alone", async () => {
    expect(await refreshes(queryKeys.organization(8), boardSectionKey(7, 'assembly'))).toBe(false);
    expect(await refreshes(queryKeys.organization(8), settingsKeys.subscriptions(7))).toBe(false);
  });

  it('the board, the library and Admin Settings never share a key with the staff pages under the same prefix', () => {
    const keys = [
      boardSectionKey(7, 'assembly'),
      libraryKey(7),
      settingsKeys.users(7),
      settingsKeys.credits(7),
      settingsKeys.subscriptions(7),
      queryKeys.customerOrganization(7),
    ];
    const shared = [queryKeys.organization(7), queryKeys.organizationProjects(7), queryKeys.organizationUsers(7), queryKeys.organizationBilling(7)];
    for (const key of keys) for (const other of shared) expect(JSON.stringify(key)).not.toBe(JSON.stringify(other));
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(keys.length);
  });
});
