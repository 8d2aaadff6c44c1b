import * as operations from '@/domain/contract/uploads.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 DELETE projects/{id}/assets/{assetId}. */
export async function deleteAsset(projectId: number, assetId: number): Promise<void> {
  await call(operations.deleteAsset, { params: { id: projectId, assetId } });
}
