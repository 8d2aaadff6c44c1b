import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { pathTo } from '../../src/domain/pages.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { accessCodesRepo } from '../repositories/access-codes.ts';

// Codes carry 256 random bits, so a fast hash is enough to keep a stolen table useless.
const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** Issues a single-use code and returns the /change-password link that carries it. */
export async function issueAccessLink(ctx: AppContext, user: UserRow, purpose: 'recovery' | 'invite', lifetimeMs: number): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await accessCodesRepo(ctx.db).issue(user.id, purpose, hashCode(code), new Date(Date.now() + lifetimeMs));
  const query = new URLSearchParams({ code, email: user.email });
  return `${ctx.config.publicUrl}${pathTo('changePassword')}?${query.toString()}`;
}

/** Uses up the user's live code equal to `code`; false when none matches (invalid, used or expired). */
export async function consumeAccessCode(ctx: AppContext, userId: number, code: string): Promise<boolean> {
  const codes = accessCodesRepo(ctx.db);
  const presented = Buffer.from(hashCode(code), 'hex');
  for (const live of await codes.liveCodes(userId, new Date())) {
    if (timingSafeEqual(presented, Buffer.from(live.codeHash, 'hex'))) return codes.consume(live.id, new Date());
  }
  return false;
}
