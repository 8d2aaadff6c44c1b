import { QUERY_OF_TYPE, type AssetType } from '@/domain/uploads.ts';
import { api } from '@/lib/api-client.ts';

/** Delete-all of a section (C§4: approved, opened or archived projects only). */
export async function deleteAllAssets(projectId: number, type?: AssetType): Promise<void> {
  await api('DELETE', `/projects/${projectId}/assets`, type ? { query: { type: QUERY_OF_TYPE[type] } } : {});
}
