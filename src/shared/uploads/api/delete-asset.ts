import { api } from '@/lib/api-client.ts';

/** C§7 DELETE projects/{id}/assets/{assetId}. */
export async function deleteAsset(projectId: number, assetId: number): Promise<void> {
  await api('DELETE', `/projects/${projectId}/assets/${assetId}`);
}
