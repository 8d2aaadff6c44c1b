import * as operations from '@/domain/contract/uploads.ts';
import type { Asset } from '@/domain/contract/uploads.ts';
import type { AssetType } from '@/domain/uploads.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 / A§7 GET projects/{id}/assets: every asset of the project, or of one type. */
export function listAssets(projectId: number, type?: AssetType): Promise<Asset[]> {
  return call(operations.listAssets, { params: { id: projectId }, ...(type && { query: { type } }) });
}
