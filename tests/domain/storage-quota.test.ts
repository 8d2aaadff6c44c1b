import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BYTES_PER_TB } from '../../src/domain/constants.ts';
import { MiB, QUOTA_TOLERANCE_BYTES, quotaAllows, quotaBytes, usedSpaceCeiling } from '../../src/domain/uploads.ts';

describe('storage quota ceiling (C§5)', () => {
  it('is the quota in bytes plus the tolerance', () => {
    expect(QUOTA_TOLERANCE_BYTES).toBe(MiB);
    expect(usedSpaceCeiling(1)).toBe(BYTES_PER_TB + MiB);
    expect(usedSpaceCeiling(0)).toBe(MiB);
    expect(usedSpaceCeiling(0.5)).toBe(BYTES_PER_TB / 2 + MiB);
    expect(usedSpaceCeiling(1000)).toBe(quotaBytes(1000) + MiB);
    expect(Number.isSafeInteger(usedSpaceCeiling(1000))).toBe(true);
  });

  it("is the one bound of the browser's check: a batch fits exactly when the total stays under it", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.nat({ max: 2 ** 40 }),
        fc.nat({ max: 2 ** 30 }),
        fc.nat({ max: 2 ** 30 }),
        (storageTb, usedSpace, total, pending) => {
          expect(quotaAllows(total, { storageTb, usedSpace }, pending)).toBe(usedSpace + pending + total <= usedSpaceCeiling(storageTb));
        },
      ),
    );
  });

  it('refuses everything once the used space passed a lowered quota plus the tolerance', () => {
    const figures = { storageTb: 1, usedSpace: BYTES_PER_TB + 2 * MiB };
    expect(quotaAllows(1, figures)).toBe(false);
  });
});
