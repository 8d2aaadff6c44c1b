import { SNIFF_BYTES, assetContentDecision, type Sniffed } from '../../src/domain/file-signature.ts';
import type { AssetType } from '../../src/domain/uploads.ts';
import { HttpError } from '../http-error.ts';
import type { ObjectStore } from '../storage/object-store.ts';

/**
 * The server's look at what a stored object really is: the first bytes, read with a ranged
 * GET (a 5 GB clip costs 4 KB), matched against known signatures by `file-type`. What the
 * uploader named the file or declared as its type never counts (issue 9).
 */

/** The signature of the object at `key` (null: none we know, or no such object). */
export async function sniffObject(storage: ObjectStore, key: string, size: number): Promise<Sniffed | null> {
  if (size <= 0) return null;
  const object = await storage.getObjectStream(key, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 });
  if (!object) return null;
  const chunks: Buffer[] = [];
  let read = 0;
  try {
    for await (const chunk of object.body) {
      chunks.push(chunk as Buffer);
      read += (chunk as Buffer).length;
      if (read >= SNIFF_BYTES) break;
    }
  } finally {
    object.body.destroy();
  }
  // file-type (≈ 30 modules) is loaded with the first upload checked, not at start (issue 14).
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(Buffer.concat(chunks).subarray(0, SNIFF_BYTES));
  return found ? { ext: found.ext, mime: found.mime } : null;
}

/** 415 with C§5's message when the object's bytes are not what `type` takes. */
export async function requireAcceptedContent(storage: ObjectStore, key: string, size: number, type: AssetType | 'DELIVERABLE'): Promise<Sniffed> {
  const sniffed = await sniffObject(storage, key, size);
  const decision = assetContentDecision(type, sniffed, size);
  if (!decision.accepted) throw new HttpError(415, decision.message, { fields: { path: decision.message } });
  return sniffed!;
}
