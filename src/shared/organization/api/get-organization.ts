import type { Struct } from 'superstruct';
import { api } from '@/lib/api-client.ts';

/**
 * GET organizations/{id}: the one client call. The server answers customers and staff with
 * different bodies, so the caller names the struct it expects (OrganizationStruct for a
 * customer, StaffOrganizationStruct for staff).
 */
export function getOrganization<T, S>(id: number, struct: Struct<T, S>): Promise<T> {
  return api('GET', `/organizations/${id}`, { struct });
}
