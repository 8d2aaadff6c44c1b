import type { ReuseStoredCopyBody, StoredCopy, StoredCopyLookupBody } from '../../src/domain/contract/uploads.ts';
import { cleanFolder } from '../../src/domain/camera-card.ts';
import { sanitizeFileName } from '../../src/domain/uploads.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { AssetRow } from '../db/schema.ts';
import { notFound } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { assetsRepo } from '../repositories/assets.ts';
import type { ProjectDetails } from '../repositories/projects.ts';
import { requireAcceptedContent } from './file-content.ts';
import { requireAssetChange } from './uploads.ts';

/**
 * Issue 35, "never send the same bytes twice". Before uploading a file the worker asks whether
 * the organization already holds an object of its size and fingerprint (src/domain/fingerprint.ts)
 * and, when it does, reads the whole file for its CRC-32: equal to the stored object's, the new
 * asset shares that object, as a duplicated project's assets do — 0 bytes sent, nothing more
 * counted against the storage (the organization's bytes are counted per object, and freed with its
 * last record). Size, fingerprint and CRC-32 of the stored object are the media worker's, read
 * from the stored bytes: nothing the browser says about an object is taken on trust.
 */

export const STORED_COPY_MESSAGES = {
  none: 'The organization holds no stored copy of this file: it is uploaded instead.',
} as const;

export async function lookupStoredCopy(ctx: AppContext, auth: AuthContext, project: ProjectDetails, body: StoredCopyLookupBody): Promise<StoredCopy> {
  requireAssetChange(auth, project);
  const copy = await assetsRepo(ctx.db).findStoredCopy(project.organizationId, body.size, body.fingerprint);
  return { crc32: copy?.crc32 ?? null };
}

/** The new asset of the stored copy (or this project's asset of it already, `created` false); 404 when there is none. */
export async function reuseStoredCopy(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectDetails,
  body: ReuseStoredCopyBody,
): Promise<{ row: AssetRow; created: boolean }> {
  requireAssetChange(auth, project);
  const repo = assetsRepo(ctx.db);
  const copy = await repo.findStoredCopy(project.organizationId, body.size, body.fingerprint, body.crc32);
  if (!copy) throw notFound(STORED_COPY_MESSAGES.none);
  const existing = await repo.findByPath(project.id, copy.path);
  if (existing) return { row: existing, created: false };
  // The zone's rule on content, as at registration: a stored image does not become an interview clip.
  await requireAcceptedContent(ctx.storage, copy.path, copy.size, body.type);
  try {
    const row = await repo.insert({
      projectId: project.id,
      name: sanitizeFileName(body.name),
      size: copy.size,
      type: body.type,
      path: copy.path,
      previewPath: copy.previewPath,
      crc32: copy.crc32,
      fingerprint: copy.fingerprint,
      sentCrc32: body.crc32,
      folder: body.folder ? cleanFolder(body.folder) : null,
      deletedAt: null,
    });
    return { row, created: true };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const raced = await repo.findByPath(project.id, copy.path);
      if (raced) return { row: raced, created: false };
    }
    throw error;
  }
}
