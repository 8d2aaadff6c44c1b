import * as operations from '@/domain/contract/uploads.ts';
import type { AssetType } from '@/domain/uploads.ts';
import { call } from '@/lib/api-client.ts';

/** Delete-all of a section (C§4: approved, opened or archived projects only). */
export async function deleteAllAssets(projectId: number, type?: AssetType): Promise<void> {
  await call(operations.deleteAllAssets, { params: { id: projectId }, ...(type && { query: { type } }) });
}
