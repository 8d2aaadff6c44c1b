import type { Me } from '../../src/domain/contract/me.ts';
import type { AppContext } from '../context.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { organizationsRepo } from '../repositories/organizations.ts';

/** GET me: the signed-in user, their organization's name, and the impersonating admin if any. */
export async function me(ctx: AppContext, { user, impersonatorId }: AuthContext): Promise<Me> {
  const organization = user.organizationId ? await organizationsRepo(ctx.db).findById(user.organizationId) : undefined;
  return {
    id: user.id,
    email: user.email,
    role: { name: user.role },
    firstName: user.firstName,
    lastName: user.lastName,
    name: `${user.firstName} ${user.lastName}`.trim(),
    organizationId: organization?.id ?? null,
    organizationName: organization?.name ?? null,
    profilePictureUrl: user.profilePictureUrl,
    impersonatedBy: impersonatorId,
  };
}
