import { expect } from 'vitest';
import { usersRepo } from '../../server/repositories/users.ts';
import { issueAccessLink } from '../../server/services/access-links.ts';
import type { TestServer } from '../server/harness.ts';

export type Headers = { authorization: string };

export const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

/** Completes a password recovery as the e-mailed link would; answers the new session's headers. */
export async function resetPassword(server: TestServer, email: string, newPassword: string): Promise<Headers> {
  const user = (await usersRepo(server.db).findByEmail(email))!;
  const link = new URL(await issueAccessLink(server.app.ctx, user, 'recovery', 3_600_000));
  const response = await server.app.inject({
    method: 'PUT',
    url: '/api/v1/password-recover-complete',
    payload: { email, recoveryCode: link.searchParams.get('code'), newPassword },
  });
  expect(response.statusCode, response.body).toBe(200);
  return bearer(response.json<{ token: string }>().token);
}
