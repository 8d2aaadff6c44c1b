import * as operations from '@/domain/contract/organizations.ts';
import { call } from '@/lib/api-client.ts';

export function createOrganization(name: string) {
  return call(operations.createOrganization, { body: { name: name.trim() } });
}
