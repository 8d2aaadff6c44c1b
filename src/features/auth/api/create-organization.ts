import { IdResponseStruct } from '@/domain/contract/organizations.ts';
import { api } from '@/lib/api-client.ts';

export function createOrganization(name: string) {
  return api('POST', '/organizations', { body: { name: name.trim() }, struct: IdResponseStruct });
}
