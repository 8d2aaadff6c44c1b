import { IdResponseStruct } from '@/domain/contract/organizations.ts';
import { api } from '@/lib/api-client.ts';

export function duplicateProject(id: number) {
  return api('POST', `/projects/${id}/duplicate`, { struct: IdResponseStruct });
}
