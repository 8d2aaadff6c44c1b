import type { Asset } from './contract/uploads.ts';
import { ZIP_FOLDERS, proxyName, type ZipKind } from './media.ts';
import { ASSET_FOLDERS, sanitizeFileName } from './uploads.ts';

/** One entry of a project's zip: a folder, or an asset's file under its type's folder. */
export interface ZipPlanEntry {
  /** Path in the archive; folders end with `/`. */
  name: string;
  size?: number;
  /** The bytes' CRC-32 when the server has computed it (raw originals, issue 14). */
  crc32?: number;
  /** `{assetId}:original` or `{assetId}:proxy`: which file of which asset. */
  ref?: string;
}

/** What of an asset a zip reads: the page's asset list and the server's rows both have it. */
export type ZipAsset = Pick<Asset, 'id' | 'name' | 'size' | 'type' | 'path' | 'previewPath' | 'crc32'>;

/**
 * The archive's entries: the three folders, then each asset under its type's folder (A§2). The
 * media worker writes a proxy zip from it on the device, the server streams the raw zip from it
 * (issue 34): the same names either way.
 */
export function zipPlan(assets: readonly ZipAsset[], kind: ZipKind): { plan: ZipPlanEntry[]; skipped: number; totalBytes: number | null } {
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
    // Cleaned as at registration (a row written some other way could hold a separator, a control
    // character or nothing): every entry stays in its folder and unzips under a valid name.
    const clean = sanitizeFileName(asset.name);
    if (kind === 'raw') {
      name = clean;
      size = asset.size;
      crc32 = asset.crc32;
    } else {
      if (!asset.previewPath) {
        skipped += 1;
        continue;
      }
      // An image is its own reduced version; a clip's proxy is `<name>_proxy.mp4`.
      const same = asset.previewPath === asset.path;
      name = same ? clean : proxyName(clean);
      size = same ? asset.size : undefined;
      crc32 = same ? asset.crc32 : null;
    }
    // Told apart without regard to case: Windows and macOS unzip `Clip.mov` and `clip.mov` to one file.
    let path = `${folder}/${name}`;
    for (let n = 1; used.has(path.toLowerCase()); n += 1) path = `${folder}/${n}-${name}`;
    used.add(path.toLowerCase());
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
