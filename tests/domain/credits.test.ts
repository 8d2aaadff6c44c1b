import { describe, expect, it } from 'vitest';
import { hasCreditLeft } from '../../src/domain/credits.ts';

/** Whether an organization has a credit left to send a project to editing with (issue 12 walkthrough). */
describe('a credit to send with (issue 12: say "no credits" before the confirmation)', () => {
  it('needs active credits not all used', () => {
    expect(hasCreditLeft({ active: true, usedCredits: 6, activeCredits: 10 })).toBe(true);
    expect(hasCreditLeft({ active: true, usedCredits: 10, activeCredits: 10 })).toBe(false);
    expect(hasCreditLeft({ active: true, usedCredits: 0, activeCredits: 0 })).toBe(false);
    expect(hasCreditLeft({ active: false, usedCredits: 0, activeCredits: 10 })).toBe(false);
  });
});
