import { describe, expect, it } from 'vitest';
import { LINK_FIELDS } from '../../src/domain/contract/projects.ts';
import { RULE_MESSAGES, canEditLink, decideLinkEdit } from '../../src/domain/project-rules.ts';
import { ROLES } from '../../src/domain/roles.ts';

describe('project links (A§2, A§8)', () => {
  it('lets managers edit all four links', () => {
    for (const role of ['SUPERADMIN', 'ADMIN'] as const)
      for (const field of LINK_FIELDS) expect(decideLinkEdit(role, field)).toEqual({ allowed: true, next: null });
  });

  it('lets an editor edit every link but the organization-assets one', () => {
    expect(decideLinkEdit('EDITOR', 'assetsLink')).toEqual({ allowed: false, status: 403, message: RULE_MESSAGES.editorAssetsLink });
    for (const field of LINK_FIELDS.filter((f) => f !== 'assetsLink')) expect(canEditLink('EDITOR', field)).toBe(true);
  });

  it('lets customers edit none', () => {
    for (const role of ['OWNER', 'USER'] as const) {
      for (const field of LINK_FIELDS) expect(decideLinkEdit(role, field)).toEqual({ allowed: false, status: 403, message: RULE_MESSAGES.role });
    }
  });

  it('answers for every role and field', () => {
    const allowed = ROLES.flatMap((role) => LINK_FIELDS.filter((field) => canEditLink(role, field)).map((field) => `${role}:${field}`));
    expect(allowed).toHaveLength(2 * 4 + 3);
  });
});
