import { BYTES_PER_TB } from './constants.ts';

export function tbToBytes(tb: number): number {
  return tb * BYTES_PER_TB;
}

export function bytesToTb(bytes: number): number {
  return bytes / BYTES_PER_TB;
}

/** Terabytes for the top bar: two decimals below 10 TB, one above. */
export function formatTb(bytes: number): string {
  const tb = bytesToTb(bytes);
  return `${tb < 10 ? tb.toFixed(2) : tb.toFixed(1)} TB`;
}

const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** File sizes as the admin spec shows them: Bytes, KB, MB or GB (1024-based). */
export function formatFileSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} Bytes` : `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
}

/**
 * Space used against a quota in TB: below 1 TB in the file-size units (123.7 MB, 18.40 GB), so
 * a first upload visibly moves the figure instead of staying at "0.00 TB"; from 1 TB as formatTb.
 */
export function formatUsedSpace(bytes: number): string {
  return bytesToTb(bytes) < 1 ? formatFileSize(bytes) : formatTb(bytes);
}
