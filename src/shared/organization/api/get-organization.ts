import { create, type Struct } from 'superstruct';
import * as operations from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/**
 * GET organizations/{id}: the one client call. The server answers customers and staff with
 * different bodies, so the caller names the struct it expects (OrganizationStruct for a
 * customer, StaffOrganizationStruct for staff) and the answer is checked against that one.
 */
export async function getOrganization<T, S>(id: number, struct: Struct<T, S>): Promise<T> {
  return create(await call(operations.getOrganization, { params: { id } }), struct);
}
