import { AssetListStruct, type Asset } from '@/domain/contract/uploads.ts';
import { QUERY_OF_TYPE, type AssetType } from '@/domain/uploads.ts';
import { api } from '../api-client.ts';

/** C§7 asset calls of the project page. */

export function listAssets(projectId: number, type?: AssetType): Promise<Asset[]> {
  return api('GET', `/projects/${projectId}/assets`, { struct: AssetListStruct, ...(type && { query: { type: QUERY_OF_TYPE[type] } }) });
}

export async function deleteAsset(projectId: number, assetId: number): Promise<void> {
  await api('DELETE', `/projects/${projectId}/assets/${assetId}`);
}

/** Delete-all of a section (C§4: approved, opened or archived projects only). */
export async function deleteAllAssets(projectId: number, type?: AssetType): Promise<void> {
  await api('DELETE', `/projects/${projectId}/assets`, type ? { query: { type: QUERY_OF_TYPE[type] } } : {});
}
