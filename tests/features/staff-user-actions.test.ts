import { describe, expect, it } from 'vitest';
import { staffMenuEntries } from '../../src/features/admin-settings/staff-user-actions.ts';

describe('admin settings users menu (issue 12, A§2)', () => {
  const all = () => true;
  it('offers Edit only on an enabled user', () => {
    expect(staffMenuEntries({ isEnabled: 1 }, all)).toEqual(['disable', 'invite', 'edit', 'delete']);
    expect(staffMenuEntries({ isEnabled: 0 }, all)).toEqual(['enable', 'invite', 'delete']);
  });

  it('leaves out what the actor may not do', () => {
    expect(staffMenuEntries({ isEnabled: 1 }, (action) => action === 'edit')).toEqual(['edit']);
    expect(staffMenuEntries({ isEnabled: 0 }, (action) => action === 'edit')).toEqual([]);
  });
});
