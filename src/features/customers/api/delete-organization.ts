import { api } from '@/lib/api-client.ts';

/** A§7 DELETE organizations/{id}: the organization and its users lose access at once. */
export async function deleteOrganization(id: number): Promise<void> {
  await api('DELETE', `/organizations/${id}`);
}
