import { Readable } from 'node:stream';
import { crc32 as nativeCrc32 } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { ZipLink } from '../../src/domain/contract/media.ts';
import { ZIP_MESSAGES, ZIP_STREAMS, zipFileName } from '../../src/domain/media.ts';
import { isStaffRole } from '../../src/domain/roles.ts';
import { zipLength, zipParts, type ZipEntry } from '../../src/domain/zip-archive.ts';
import { zipPlan, type ZipPlanEntry } from '../../src/domain/zip-plan.ts';
import { manifestCsv, manifestFileName } from '../../src/domain/asset-checksum.ts';
import type { AppContext } from '../context.ts';
import { HttpError, notFound } from '../http-error.ts';
import { ZIP_LINK_SECONDS, signZipToken, verifyZipToken, type MediaSession } from '../media/media-links.ts';
import { assetsRepo } from '../repositories/assets.ts';
import type { ProjectDetails } from '../repositories/projects.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { linkCaller } from './media.ts';
import { visibleProject } from './project-access.ts';

/**
 * Issue 34: the raw zip of a project is streamed by the server, straight from the stored
 * originals. Measured (bench/download-ceiling, docs/decisions.md): every way a page can write a
 * file of its own making runs at a quarter of a plain download or less in Chromium, while bytes
 * the server sends reach it. The proxy zip (files still being made, some skipped) stays on the
 * device's media worker. Both write the same archive: src/domain/zip-archive.ts, src/domain/zip-plan.ts.
 *
 * The CRC-32 of every entry is computed from the bytes sent (Node's native CRC, 0.37 CPU s per
 * GiB here), not taken from the asset row: an object replaced after the media pipeline read it
 * would otherwise arrive under a CRC that is not its own.
 */
export interface ServerZip {
  name: string;
  /**
   * Names this archive's bytes (strong): the same rows give the same archive, byte for byte (a
   * folder's time is the newest asset's, not the clock's), so a download cut short can go on
   * with `Range` and `If-Range`, as browsers resume one.
   */
  etag: string;
  /** The archive's length in bytes (Content-Length). */
  size: number;
  /** Files in it, the three folders not counted. */
  files: number;
  entries: ZipEntry[];
}

/** An object's bytes; a missing one fails the archive (the download is then marked failed, never cut short silently). */
async function storedBytes(storage: ObjectStore, key: string, name: string): Promise<AsyncIterable<Uint8Array>> {
  const object = await storage.getObjectStream(key);
  if (!object) throw new Error(`"${name}" is no longer in the store.`);
  return object.body;
}

/** The raw zip's plan for the project's assets as they stand now, with the row of each file entry. */
async function rawPlan(ctx: AppContext, projectId: number) {
  const rows = await assetsRepo(ctx.db).list(projectId);
  const { plan } = zipPlan(
    rows.map((row) => ({ ...row, type: { name: row.type } })),
    'raw',
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const rowOf = (entry: ZipPlanEntry) => (entry.ref === undefined ? undefined : byId.get(Number(entry.ref.split(':')[0])));
  return { rows, plan, rowOf };
}

/** The project's raw zip as it stands now: its entries and its length, nothing read yet. */
export async function rawZip(ctx: AppContext, projectId: number): Promise<ServerZip> {
  const { rows, plan, rowOf } = await rawPlan(ctx, projectId);
  const newest = rows.reduce((latest, row) => (row.createdAt > latest ? row.createdAt : latest), FOLDERS_TIME);
  const entries: ZipEntry[] = plan.map((entry) => {
    const row = rowOf(entry);
    if (!row) return { name: entry.name, directory: true, lastModified: newest };
    return {
      name: entry.name,
      size: row.size,
      lastModified: row.createdAt,
      open: () => storedBytes(ctx.storage, row.path, entry.name),
    };
  });
  const etag = createHash('sha256')
    // Every field an entry's name or bytes come from (the folder too, issue 35: it names the entry).
    .update(JSON.stringify([ARCHIVE_VERSION, rows.map((row) => [row.id, row.name, row.type, row.path, row.size, row.createdAt.toISOString(), row.folder])]))
    .digest('base64url')
    .slice(0, 27);
  return { name: zipFileName(projectId, 'raw'), etag: `"${etag}"`, size: await zipLength(entries), files: rows.length, entries };
}

/** Issue 35: the raw zip's manifest, each file under the path the zip gives it (the same plan, the same rows). */
export async function rawZipManifest(ctx: AppContext, projectId: number): Promise<{ name: string; body: string }> {
  const { plan, rowOf } = await rawPlan(ctx, projectId);
  const rows = plan.flatMap((entry) => {
    const row = rowOf(entry);
    return row ? [{ path: entry.name, size: row.size, crc32: row.crc32, sentCrc32: row.sentCrc32 }] : [];
  });
  return { name: manifestFileName(projectId), body: manifestCsv(rows) };
}

/** The folders' time in a project without assets (any fixed time would do: the archive must not depend on the clock). */
const FOLDERS_TIME = new Date(Date.UTC(2024, 0, 1));
/** Part of every ETag: a change to how archives are written must not resume an old download with new bytes. */
const ARCHIVE_VERSION = 'raw zip v1';

/** A link to the raw zip for this staff session (ended with it, like a media link). */
export async function rawZipLink(ctx: AppContext, apiPrefix: string, project: ProjectDetails, session: MediaSession): Promise<ZipLink> {
  const zip = await rawZip(ctx, project.id);
  const now = Date.now();
  const token = signZipToken(ctx.config.jwtSecret, project.id, session, now);
  return {
    link: `${apiPrefix}/zips/${token}/${encodeURIComponent(zip.name)}`,
    name: zip.name,
    size: zip.size,
    files: zip.files,
    expiresAt: new Date(now + ZIP_LINK_SECONDS * 1000).toISOString(),
  };
}

/**
 * The project of a zip link, for its session as it is now: a staff member's, not ended (password
 * reset, disable, delete) and not an impersonation; 404 as for any link that is not valid, 410 once expired.
 */
export async function zipLinkProject(ctx: AppContext, token: string): Promise<{ project: ProjectDetails; userId: number }> {
  const { claims, auth } = await linkCaller(ctx, verifyZipToken(ctx.config.jwtSecret, token));
  if (auth.impersonatorId !== null || !isStaffRole(auth.user.role)) throw notFound();
  return { project: await visibleProject(ctx, auth, claims.projectId), userId: auth.user.id };
}

/**
 * The archive's bytes `start`..`end` (inclusive; the whole by default) as a Node stream, read
 * only as fast as the client takes them. The bytes before `start` are made and dropped, not
 * sent: the central directory at the end needs every entry's CRC-32, computed from the bytes.
 */
export function zipBody(zip: ServerZip, start = 0, end = zip.size - 1): Readable {
  const parts = zipParts(zip.entries, undefined, { crc32: nativeCrc32 }) as AsyncGenerator<Uint8Array>;
  if (start === 0 && end === zip.size - 1) return Readable.from(parts);
  return Readable.from(
    (async function* () {
      let offset = 0;
      for await (const part of parts) {
        const from = Math.max(start - offset, 0);
        const to = Math.min(end + 1 - offset, part.length);
        offset += part.length;
        if (to > from) yield from === 0 && to === part.length ? part : part.subarray(from, to);
        if (offset > end) return;
      }
    })(),
  );
}

/** Raw zips this instance is streaming now, in all and by staff member (limits: ZIP_STREAMS). */
const streaming = { total: 0, byUser: new Map<number, number>() };

/** Why `userId` cannot start a zip now (429 for theirs, 503 for the server's), or null. */
export function zipStreamRefusal(userId: number): HttpError | null {
  if ((streaming.byUser.get(userId) ?? 0) >= ZIP_STREAMS.perUser) return new HttpError(429, ZIP_MESSAGES.yoursBusy);
  if (streaming.total >= ZIP_STREAMS.perInstance) return new HttpError(503, ZIP_MESSAGES.serverBusy);
  return null;
}

/**
 * Takes a place for `userId`'s download, or throws why not; the returned function gives it back
 * (once, whenever the answer ends).
 */
export function takeZipStream(userId: number): () => void {
  const refusal = zipStreamRefusal(userId);
  if (refusal) throw refusal;
  streaming.total += 1;
  streaming.byUser.set(userId, (streaming.byUser.get(userId) ?? 0) + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    streaming.total -= 1;
    const left = (streaming.byUser.get(userId) ?? 1) - 1;
    if (left > 0) streaming.byUser.set(userId, left);
    else streaming.byUser.delete(userId);
  };
}
