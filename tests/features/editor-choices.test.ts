import { describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/contract/users.ts';
import { EDITOR_SEARCH_FROM, editorChoices } from '../../src/features/dashboard/editor-choices.ts';

describe('dashboard editor picker (issue 12)', () => {
  const editor = (id: number, firstName: string, hasPassword = true, email = `${firstName.toLowerCase()}@x.test`): User =>
    ({
      id,
      firstName,
      lastName: 'Cut',
      email,
      phone: null,
      profilePictureUrl: null,
      assetsPath: null,
      isEnabled: 1,
      hasPassword,
      deletedAt: null,
      role: { name: 'EDITOR' },
      organizationId: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    }) as unknown as User;
  const fifty = Array.from({ length: 50 }, (_, i) => editor(i + 1, `Editor${String(i + 1).padStart(2, '0')}`, i % 10 !== 0));

  it('searches by name or e-mail, case-insensitively', () => {
    expect(editorChoices(fifty, 'editor4', null).map((c) => c.name)).toEqual([
      'Editor40 Cut',
      'Editor42 Cut',
      'Editor43 Cut',
      'Editor44 Cut',
      'Editor45 Cut',
      'Editor46 Cut',
      'Editor47 Cut',
      'Editor48 Cut',
      'Editor49 Cut',
      'Editor41 Cut',
    ]);
    expect(editorChoices([editor(1, 'Ann', true, 'zed@studio.test')], 'ZED@', null)).toHaveLength(1);
    expect(editorChoices(fifty, 'nobody', null)).toEqual([]);
    expect(fifty.length).toBeGreaterThanOrEqual(EDITOR_SEARCH_FROM);
  });

  it('marks editors who never accepted their invitation and lists them last', () => {
    const choices = editorChoices([editor(1, 'Zoe'), editor(2, 'Adam', false)], '', null);
    expect(choices.map((c) => [c.name, c.pending])).toEqual([
      ['Zoe Cut', false],
      ['Adam Cut', true],
    ]);
  });

  it('keeps the assigned editor listed when no longer among the enabled ones', () => {
    expect(editorChoices([editor(1, 'Zoe')], '', { id: 9, firstName: 'Old', lastName: 'Hand' }).map((c) => c.id)).toEqual([9, 1]);
  });
});
