import { AssetListStruct } from '@/domain/contract/uploads.ts';
import { api } from '@/lib/api-client.ts';

export function listAssets(projectId: number) {
  return api('GET', `/projects/${projectId}/assets`, { struct: AssetListStruct });
}
