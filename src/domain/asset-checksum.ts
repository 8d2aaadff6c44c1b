import { crc32Hex } from './crc32.ts';
import { csvDocument } from './csv.ts';

/**
 * Issue 35, "prove every byte arrived": what staff are told of an asset's bytes. The uploading
 * device computes a CRC-32 over every part it sends, and the store refuses a part whose bytes do
 * not match it (so a part corrupted on the way is sent again, never kept); the device registers
 * the whole file's CRC-32 (`sentCrc32`). The media worker later reads the stored object back and
 * computes its own (`crc32`). Equal, the stored file is the customer's, bit for bit.
 */
export type AssetVerification = 'verified' | 'mismatch' | 'checking' | 'unknown';

export function verificationOf(asset: { crc32: number | null; sentCrc32: number | null }): AssetVerification {
  // Uploaded before devices sent their CRC-32, or by a client that did not: nothing to compare with.
  if (asset.sentCrc32 === null) return 'unknown';
  if (asset.crc32 === null) return 'checking';
  return asset.crc32 === asset.sentCrc32 ? 'verified' : 'mismatch';
}

export const VERIFICATION_LABELS: Record<AssetVerification, string> = {
  verified: 'Verified',
  mismatch: 'Checksum mismatch',
  checking: 'Checking',
  unknown: 'Not verified',
};

/** What each mark means, for its tooltip. */
export const VERIFICATION_HINTS: Record<AssetVerification, string> = {
  verified: "The stored file's CRC-32 equals the one the customer's device computed while uploading it.",
  mismatch: "The stored file's CRC-32 differs from the one the customer's device computed: ask for the file again.",
  checking: 'The stored file is being read back to compare its CRC-32 with the one the device sent.',
  unknown: "Uploaded before devices sent a checksum: the stored file's CRC-32 has nothing to be compared with.",
};

export const MANIFEST_HEADER = ['Path', 'Size', 'CRC-32', 'Status'] as const;

export interface ManifestRow {
  /** The file's path in the project's raw zip (src/domain/zip-plan.ts). */
  path: string;
  size: number;
  crc32: number | null;
  sentCrc32: number | null;
}

/**
 * The raw zip's manifest (CSV): per file its path in the zip, its size in bytes, the stored
 * bytes' CRC-32 in hex (what `unzip -v`, `7z h` and `crc32` print) and its verification. Empty
 * CRC while the store's copy is still being read.
 */
export function manifestCsv(rows: readonly ManifestRow[]): string {
  return csvDocument(
    MANIFEST_HEADER,
    rows.map((row) => [row.path, String(row.size), row.crc32 === null ? '' : crc32Hex(row.crc32), VERIFICATION_LABELS[verificationOf(row)]]),
  );
}

/** `project-12_raw_assets_manifest.csv`, beside `project-12_raw_assets.zip`. */
export function manifestFileName(projectId: number): string {
  return `project-${projectId}_raw_assets_manifest.csv`;
}
