import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../../server/services/tokens.ts';

/**
 * Session tokens (server/services/tokens.ts). A token whose signature was checked is kept
 * (issue 34: by its SHA-256), so what a caller depends on must hold for a kept one too: it ends
 * when it expires and when its session's absolute lifetime ends, and no other token rides on it.
 */
describe('session tokens', () => {
  const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
  const start = new Date('2026-11-29T12:00:00Z');
  afterEach(() => vi.useRealTimers());

  it('a token checked once is still refused from the second its lifetime ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const tokens = createTokenService(SECRET, 60, 3_600);
    const token = await tokens.sign({ userId: 7, impersonatorId: null, sessionVersion: 2 });
    expect(await tokens.verify(token)).toMatchObject({ userId: 7, sessionVersion: 2 });
    vi.setSystemTime(start.getTime() + 59_000);
    expect(await tokens.verify(token)).toMatchObject({ userId: 7 });
    vi.setSystemTime(start.getTime() + 60_000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it("a kept token is refused once its session's absolute lifetime ends, whatever the token's own", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const tokens = createTokenService(SECRET, 3_600, 3_600);
    const signedInAt = Math.floor(start.getTime() / 1000) - 3_000;
    const token = await tokens.sign({ userId: 7, impersonatorId: null, sessionVersion: 0, signedInAt });
    expect(await tokens.verify(token)).toMatchObject({ userId: 7, signedInAt });
    vi.setSystemTime(start.getTime() + 600_000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('a token changed in any part, or signed with another secret, is refused even while the original is kept', async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ userId: 7, impersonatorId: null, sessionVersion: 0 });
    expect(await tokens.verify(token)).toMatchObject({ userId: 7 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
    const other = await createTokenService(`${SECRET}-other`).sign({ userId: 7, impersonatorId: null, sessionVersion: 0 });
    expect(await tokens.verify(other)).toBeNull();
    expect(await tokens.verify(token)).toMatchObject({ userId: 7 });
  });
});
