import { AssetListStruct, type Asset } from '@/domain/contract/uploads.ts';
import { QUERY_OF_TYPE, type AssetType } from '@/domain/uploads.ts';
import { api } from '@/lib/api-client.ts';

/** C§7 / A§7 GET projects/{id}/assets: every asset of the project, or of one type. */
export function listAssets(projectId: number, type?: AssetType): Promise<Asset[]> {
  return api('GET', `/projects/${projectId}/assets`, { struct: AssetListStruct, ...(type && { query: { type: QUERY_OF_TYPE[type] } }) });
}
