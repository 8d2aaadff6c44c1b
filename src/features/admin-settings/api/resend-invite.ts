import { api } from '@/lib/api-client.ts';

export async function resendInvite(id: number): Promise<void> {
  await api('PATCH', `/users/${id}/invite-link`);
}
