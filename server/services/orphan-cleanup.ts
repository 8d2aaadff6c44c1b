import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { StorageConfig } from '../config.ts';
import { ABANDONED_UPLOAD_DAYS } from '../../src/domain/uploads.ts';
import type { AppContext } from '../context.ts';
import { assetsRepo } from '../repositories/assets.ts';
import { projectsRepo } from '../repositories/projects.ts';
import { reviewRepo } from '../repositories/review.ts';

/**
 * Issue 9: completed objects that are never registered. Browser credentials may write any
 * number of objects under `projects/{id}/raw/` (or staff under `final/`); storage is counted
 * only when an asset is registered, so objects left unregistered would bypass the quota
 * without limit. After the same grace as abandoned multipart uploads they are deleted.
 */
export const ORPHAN_GRACE_DAYS = ABANDONED_UPLOAD_DAYS;
const DAY_MS = 86_400_000;
const UPLOADED_KEY = /^projects\/\d+\/(raw|final)\//;

export interface ListedObject {
  key: string;
  lastModified: Date;
}

/** Pages of the objects under a prefix (up to 1,000 each). */
export type ObjectLister = (prefix: string) => AsyncIterable<ListedObject[]>;

/**
 * Deletes the objects under `projects/*\/raw/` that no live asset record points at and the
 * ones under `projects/*\/final/` that are no project's final video nor any review version's cut,
 * once older than the grace.
 * Duplicated projects share objects, so a record of any project keeps an object.
 */
export async function deleteOrphanObjects(ctx: AppContext, list: ObjectLister, now = new Date()): Promise<{ deleted: number; failed: number }> {
  const cutoff = now.getTime() - ORPHAN_GRACE_DAYS * DAY_MS;
  let deleted = 0;
  let failed = 0;
  for await (const page of list('projects/')) {
    const old = page.filter((object) => UPLOADED_KEY.test(object.key) && object.lastModified.getTime() < cutoff).map((object) => object.key);
    const raw = old.filter((key) => key.split('/')[2] === 'raw');
    const final = old.filter((key) => key.split('/')[2] === 'final');
    const kept = new Set([
      ...(await assetsRepo(ctx.db).livePaths(raw)),
      ...(await projectsRepo(ctx.db).finalVideoPaths(final)),
      // An earlier cut is a review version with its own comments (issue 13): it stays as long as the version does.
      ...(await reviewRepo(ctx.db).versionPaths(final)),
    ]);
    const orphans = old.filter((key) => !kept.has(key));
    if (orphans.length === 0) continue;
    const result = await ctx.storage.deleteObjects(orphans);
    deleted += result.deleted.length;
    failed += result.errors.length;
  }
  return { deleted, failed };
}

/** ListObjectsV2 with the server's own key pair (the object store module has no listing). */
export function s3ObjectLister(storage: StorageConfig, endpoint: string): { list: ObjectLister; close: () => void } {
  const client = new S3Client({
    endpoint,
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    // No static keys (external store): the SDK's default credential chain, like the object store.
    ...(storage.accessKeyId && storage.secretAccessKey && { credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey } }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  async function* list(prefix: string): AsyncIterable<ListedObject[]> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: prefix, ...(token && { ContinuationToken: token }) }));
      yield (page.Contents ?? []).flatMap((object) => (object.Key && object.LastModified ? [{ key: object.Key, lastModified: object.LastModified }] : []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return { list, close: () => client.destroy() };
}

/** The background job: never throws, logs what it did or why it failed. */
export async function sweepOrphanObjects(ctx: AppContext, endpoint: string | null, log: FastifyBaseLogger): Promise<void> {
  if (!endpoint) return;
  const lister = s3ObjectLister(ctx.config.storage, endpoint);
  try {
    const swept = await deleteOrphanObjects(ctx, lister.list);
    if (swept.deleted || swept.failed) log.info(swept, 'unregistered uploads past their grace deleted');
  } catch (error) {
    log.error({ err: error }, 'unregistered upload sweep failed');
  } finally {
    lister.close();
  }
}
