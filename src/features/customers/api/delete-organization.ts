import * as operations from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 DELETE organizations/{id}: the organization and its users lose access at once. */
export async function deleteOrganization(id: number): Promise<void> {
  await call(operations.deleteOrganization, { params: { id } });
}
