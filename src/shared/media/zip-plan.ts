import type { Asset } from '@/domain/contract/uploads.ts';
import { ZIP_FOLDERS, proxyName, type ZipKind } from '@/domain/media.ts';
import { ASSET_FOLDERS } from '@/domain/uploads.ts';
import type { ZipPlanEntry } from '../../../workers/media.worker.ts';

/** The archive's entries: the three folders, then each asset under its type's folder (A§2). */
export function zipPlan(assets: Asset[], kind: ZipKind): { plan: ZipPlanEntry[]; skipped: number; totalBytes: number | null } {
  const plan: ZipPlanEntry[] = ZIP_FOLDERS.map((name) => ({ name }));
  let skipped = 0;
  let totalBytes: number | null = 0;
  const used = new Set<string>();
  for (const asset of assets) {
    const folder = ASSET_FOLDERS[asset.type.name];
    let name: string;
    let size: number | undefined;
    // The original's CRC-32, once the server has computed it (null before).
    let crc32: number | null;
    if (kind === 'raw') {
      name = asset.name;
      size = asset.size;
      crc32 = asset.crc32;
    } else {
      if (!asset.previewPath) {
        skipped += 1;
        continue;
      }
      // An image is its own reduced version; a clip's proxy is `<name>_proxy.mp4`.
      const same = asset.previewPath === asset.path;
      name = same ? asset.name : proxyName(asset.name);
      size = same ? asset.size : undefined;
      crc32 = same ? asset.crc32 : null;
    }
    let path = `${folder}/${name}`;
    for (let n = 1; used.has(path); n += 1) path = `${folder}/${n}-${name}`;
    used.add(path);
    if (size === undefined) totalBytes = null;
    else if (totalBytes !== null) totalBytes += size;
    plan.push({
      name: path,
      ...(size !== undefined && { size }),
      ...(crc32 !== null && size !== undefined && { crc32 }),
      ref: `${asset.id}:${kind === 'raw' ? 'original' : 'proxy'}`,
    });
  }
  return { plan, skipped, totalBytes };
}
