import { describe, expect, it } from 'vitest';
import { formatFileSize, formatTb, formatUsedSpace, tbToBytes } from '../../src/domain/bytes.ts';
import { creditStatus } from '../../src/domain/credits.ts';
import { daysUntilExpiry, shouldRefreshToken, tokenExpiryMs } from '../../src/domain/session.ts';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 21, 12);

describe('token refresh rule', () => {
  it('rounds the days left up', () => {
    expect(daysUntilExpiry(now + 1.2 * DAY, now)).toBe(2);
    expect(daysUntilExpiry(now + 2 * DAY, now)).toBe(2);
    expect(daysUntilExpiry(now + 2 * DAY + 1, now)).toBe(3);
  });

  it('refreshes with 2 days or fewer left, never once expired', () => {
    expect(shouldRefreshToken(now + 3 * DAY, now)).toBe(false);
    expect(shouldRefreshToken(now + 2 * DAY + 60_000, now)).toBe(false);
    expect(shouldRefreshToken(now + 2 * DAY, now)).toBe(true);
    expect(shouldRefreshToken(now + 60_000, now)).toBe(true);
    expect(shouldRefreshToken(now, now)).toBe(false);
    expect(shouldRefreshToken(now - DAY, now)).toBe(false);
  });

  it('reads the expiry of a JWT', () => {
    const payload = Buffer.from(JSON.stringify({ sub: '1', exp: 1_800_000_000 })).toString('base64url');
    expect(tokenExpiryMs(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`)).toBe(1_800_000_000_000);
    expect(tokenExpiryMs('garbage')).toBeNull();
  });
});

describe('credits status', () => {
  it('is ACTIVE only between the start and end dates, both included', () => {
    expect(creditStatus('2026-01-01', '2026-12-31', '2026-01-01')).toBe('ACTIVE');
    expect(creditStatus('2026-01-01', '2026-12-31', '2026-12-31')).toBe('ACTIVE');
    expect(creditStatus('2026-01-01', '2026-12-31', '2027-01-01')).toBe('INACTIVE');
    expect(creditStatus('2026-01-02', '2026-12-31', '2026-01-01')).toBe('INACTIVE');
    expect(creditStatus(null, '2026-12-31', '2026-06-01')).toBe('INACTIVE');
  });
});

describe('byte units', () => {
  it('uses 1,099,511,627,776 bytes per TB', () => {
    expect(tbToBytes(1)).toBe(1_099_511_627_776);
    expect(formatTb(tbToBytes(2))).toBe('2.00 TB');
    expect(formatTb(0)).toBe('0.00 TB');
    // Used space moves with a first upload instead of staying at 0.00 TB.
    expect(formatUsedSpace(129_708_851)).toBe('123.7 MB');
    expect(formatUsedSpace(0)).toBe('0 Bytes');
    expect(formatUsedSpace(tbToBytes(1))).toBe('1.00 TB');
  });

  it('shows file sizes in Bytes, KB, MB or GB', () => {
    expect(formatFileSize(512)).toBe('512 Bytes');
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(20 * 1024 * 1024)).toBe('20.0 MB');
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3072.0 GB');
  });
});
