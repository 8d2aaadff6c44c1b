import { Id, textSchema } from './fields.ts';
import { array, enums, number, object, string, type Infer } from 'superstruct';
import { define, describedAs, nullable, optional } from './schema-notes.ts';
import { defineOperation } from './define.ts';
import { ProjectStruct } from './projects.ts';
import { AssetTypeParam } from './uploads.ts';

const KeyText = (name: string, message: string) =>
  describedAs(
    define<string>(name, (v) => (typeof v === 'string' && v.trim().length > 0 && v.length <= 1024) || message),
    textSchema(1, 1024),
  );

/** A§7 POST projects/{id}/deliverable: the final video's location and file name. */
export const DeliverableBodyStruct = object({
  /** The object key, or the folder it is in (then `name` completes it). */
  path: KeyText('path', 'The location of the final video is required.'),
  name: KeyText('name', 'The file name of the final video is required.'),
});
export type DeliverableBody = Infer<typeof DeliverableBodyStruct>;

/**
 * A§7 POST projects/{id}/links: one short-lived GET link. The spec's form names the file
 * (name, type, uploadType; the proxy is `<name>_proxy.mp4` with upload type deliverable);
 * `assetId` with `variant` names it directly.
 */
export const LinkBodyStruct = object({
  assetId: optional(Id),
  variant: optional(enums(['original', 'proxy'])),
  name: optional(string()),
  size: optional(number()),
  type: optional(AssetTypeParam),
  uploadType: optional(string()),
  operationName: optional(string()),
});
export type LinkBody = Infer<typeof LinkBodyStruct>;

export const LinkStruct = object({
  link: string(),
  /** The name the browser saves it under. */
  name: string(),
  size: nullable(number()),
  expiresAt: string(),
});
export type Link = Infer<typeof LinkStruct>;

/** POST projects/{id}/zip-links (staff, issue 34): the project's raw zip, streamed by the server. */
export const ZipLinkBodyStruct = object({ kind: enums(['raw']) });
export type ZipLinkBody = Infer<typeof ZipLinkBodyStruct>;

export const ZipLinkStruct = object({
  /** A GET of the archive, this session's, valid 12 hours (a cut download resumes with Range); an `<a download>` opens it. */
  link: string(),
  /** `project-{id}_raw_assets.zip`. */
  name: string(),
  /** The archive's length in bytes, as the download will say it. */
  size: number(),
  /** Files in it (the three folders not counted). */
  files: number(),
  expiresAt: string(),
});
export type ZipLink = Infer<typeof ZipLinkStruct>;

export const MEDIA_JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

/** GET projects/{id}/media-jobs (staff): the media work of a project, failures with their error. */
export const MediaJobStruct = object({
  id: number(),
  kind: string(),
  assetId: nullable(number()),
  status: enums(MEDIA_JOB_STATUSES),
  attempts: number(),
  maxAttempts: number(),
  lastError: nullable(string()),
  runAt: string(),
  createdAt: string(),
  finishedAt: nullable(string()),
});
export type MediaJob = Infer<typeof MediaJobStruct>;
export const MediaJobListStruct = object({ data: object({ jobs: array(MediaJobStruct), ffmpeg: enums(['available', 'missing']) }) });

/** A§7: staff (not editors, not through an impersonation) register the final video they uploaded; answers the project. */
export const registerDeliverable = defineOperation({
  method: 'POST',
  path: '/projects/{id}/deliverable',
  access: 'signed-in',
  body: DeliverableBodyStruct,
  answer: ProjectStruct,
});
export const requestDownloadLink = defineOperation({
  method: 'POST',
  path: '/projects/{id}/links',
  access: 'signed-in',
  body: LinkBodyStruct,
  answer: LinkStruct,
});
export const listMediaJobs = defineOperation({ method: 'GET', path: '/projects/{id}/media-jobs', access: 'staff', answer: MediaJobListStruct });
/** A media link of the final video: the signed token is the credential. Answers a playlist, a redirect, or 404/503. */
export const getMediaFile = defineOperation({ method: 'GET', path: '/media/{token}/{file}', access: 'public' });
/** A variant playlist of the HLS rendition, its segments presigned for the browser. */
export const getStreamVariant = defineOperation({ method: 'GET', path: '/media/{token}/stream/{variant}/playlist.m3u8', access: 'public' });
/** Issue 34: staff ask for a link to the project's raw zip, which the server streams from the stored originals. */
export const requestZipLink = defineOperation({
  method: 'POST',
  path: '/projects/{id}/zip-links',
  access: 'staff',
  body: ZipLinkBodyStruct,
  answer: ZipLinkStruct,
});
/**
 * Issue 35: the raw zip's manifest (CSV: path in the zip, size, CRC-32, verification), made from
 * the same rows as the zip (src/domain/asset-checksum.ts `manifestCsv`).
 */
export const downloadAssetManifest = defineOperation({ method: 'GET', path: '/projects/{id}/assets/manifest', access: 'staff', status: 200 });
/** The raw zip itself: the signed token is the credential; `file` is the archive's name. */
export const downloadZip = defineOperation({ method: 'GET', path: '/zips/{token}/{file}', access: 'public' });
