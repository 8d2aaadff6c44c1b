import { cleanFolder } from './camera-card.ts';
import type { Asset } from './contract/uploads.ts';
import { ZIP_FOLDERS, proxyName, type ZipKind } from './media.ts';
import { ASSET_FOLDERS, sanitizeFileName } from './uploads.ts';

/** One entry of a project's zip: a folder, or an asset's file under its type's folder (and its own folder, issue 35). */
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
export type ZipAsset = Pick<Asset, 'id' | 'name' | 'size' | 'type' | 'path' | 'previewPath' | 'crc32' | 'folder'>;

/**
 * The archive's entries: the three folders, then each asset under its type's folder (A§2), and
 * under its own folder when it came from a dropped folder (issue 35: `interviews/CARD/DCIM/
 * 100MSDCF/C0001.MP4`, the card's clips kept apart as on the card). The media worker writes a
 * proxy zip from it on the device, the server streams the raw zip from it (issue 34): the same
 * names either way.
 */
export function zipPlan(assets: readonly ZipAsset[], kind: ZipKind): { plan: ZipPlanEntry[]; skipped: number; totalBytes: number | null } {
  const plan: ZipPlanEntry[] = ZIP_FOLDERS.map((name) => ({ name }));
  let skipped = 0;
  let totalBytes: number | null = 0;
  // Paths taken, lower-cased: files, and the folders above them (a file may not take a folder's
  // name, nor a folder a file's: unzipping could not make both).
  const used = new Set<string>();
  const folders = new Set<string>();
  const taken = (path: string) => used.has(path) || folders.has(path);
  for (const asset of assets) {
    const typeFolder = ASSET_FOLDERS[asset.type.name];
    // Cleaned again, as the name is below (a row written some other way could hold `..`).
    const own = asset.folder ? cleanFolder(asset.folder) : null;
    // A level of the folder already a file's path: the file goes under its type's folder alone.
    const levels = own ? own.split('/').map((_, i, all) => `${typeFolder}/${all.slice(0, i + 1).join('/')}`.toLowerCase()) : [];
    const folder = own && !levels.some((level) => used.has(level)) ? `${typeFolder}/${own}` : typeFolder;
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
    for (let n = 1; taken(path.toLowerCase()); n += 1) path = `${folder}/${n}-${name}`;
    used.add(path.toLowerCase());
    if (folder !== typeFolder) for (const level of levels) folders.add(level);
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
