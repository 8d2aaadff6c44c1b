import { array, boolean, enums, number, object, string, type Infer, type Struct } from 'superstruct';
import { define, describedAs, nullable, optional } from './schema-notes.ts';
import { ASSET_TYPES, UPLOAD_TYPES, parseAssetType, type AssetType } from '../uploads.ts';
import { FINGERPRINT_PATTERN } from '../fingerprint.ts';
import { defineOperation } from './define.ts';
import { fromText, Id, ruleField, textSchema, wholeNumberSchema } from './fields.ts';

/** An asset type in any spelling the specs use (Asset, InterviewClip, BRollClip, ASSET, BROLL_CLIP, B_ROLL_CLIP). */
export const AssetTypeParam: Struct<AssetType, null> = fromText(
  describedAs(
    define<AssetType>('type', (v) => (ASSET_TYPES as readonly unknown[]).includes(v) || 'Type must be Asset, InterviewClip or BRollClip.'),
    { type: 'string', enum: [...ASSET_TYPES] },
  ),
  (v) => parseAssetType(v) ?? v,
);

/** `code` of the 409 that refuses an asset past the storage quota ("There is no more memory."). */
export const NO_MEMORY_CODE = 507;

/** A project id sent as a number (or numeric text). */
const ProjectId = fromText(Id, (v) => (/^\d+$/.test(v) ? Number(v) : v));

/** POST uploads/credentials. */
export const UploadCredentialsBodyStruct = object({
  projectId: ProjectId,
  /** 'asset' (raw files, the default) or 'deliverable' (the final video, staff). */
  uploadType: optional(enums(UPLOAD_TYPES)),
});
export type UploadCredentialsBody = Infer<typeof UploadCredentialsBodyStruct>;

/** Short-lived credentials limited to `prefix`, and where to send the object requests. */
export const UploadCredentialsStruct = object({
  accessKeyId: string(),
  secretAccessKey: string(),
  sessionToken: string(),
  /** ISO time after which the credentials stop working. */
  expiration: string(),
  /** The server's clock when answering, so a browser with a wrong clock still signs in time. */
  serverTime: string(),
  /** S3 endpoint the browser talks to (path-style when forcePathStyle). */
  endpoint: string(),
  bucket: string(),
  region: string(),
  forcePathStyle: boolean(),
  /** Every key written with these credentials starts with this. */
  prefix: string(),
});
export type UploadCredentials = Infer<typeof UploadCredentialsStruct>;

/**
 * POST uploads/refusals: an upload request that something between the browser and the store
 * refused before the store saw it (a proxy's 413), told for the operator's log.
 */
export const UploadRefusalBodyStruct = object({
  projectId: ProjectId,
  /** The status the browser got: 413, request body too large. */
  status: enums([413]),
  /** The refused request's body, in bytes. */
  bytes: describedAs(
    define<number>('bytes', (v) => (Number.isSafeInteger(v) && (v as number) >= 0) || 'The size must be a whole number of bytes.'),
    wholeNumberSchema(0),
  ),
});
export type UploadRefusalBody = Infer<typeof UploadRefusalBodyStruct>;

const TypeQuery = { type: optional(AssetTypeParam) };

const FileName = () =>
  describedAs(
    define<string>('name', (v) => (typeof v === 'string' && v.trim().length > 0 && v.length <= 1024) || 'A file name is required.'),
    textSchema(1, 1024),
  );

export const AssetListQueryStruct = object(TypeQuery);
export const AssetDeleteAllQueryStruct = object(TypeQuery);

export const CheckNameQueryStruct = object({
  type: AssetTypeParam,
  name: FileName(),
});

/** A§3 file-name response: the final name and the object key to write. */
export const CheckNameStruct = object({ name: string(), location: string() });
export type CheckName = Infer<typeof CheckNameStruct>;

const SizeField = describedAs(
  define<number>('size', (v) => (Number.isSafeInteger(v) && (v as number) >= 0) || 'The size must be a whole number of bytes.'),
  wholeNumberSchema(0),
);

const Crc32Field = describedAs(
  define<number>(
    'crc32',
    (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff) || 'A CRC-32 is a whole number from 0 to 2^32 - 1.',
  ),
  wholeNumberSchema(0, 0xffffffff),
);

const FolderField = describedAs(
  define<string>('folder', (v) => (typeof v === 'string' && v.length <= 1024) || 'The folder is a path of at most 1,024 characters.'),
  textSchema(undefined, 1024),
);

/** POST projects/{id}/assets: register an object the browser finished uploading. */
export const RegisterAssetBodyStruct = object({
  name: FileName(),
  path: describedAs(
    define<string>('path', (v) => (typeof v === 'string' && v.length > 0 && v.length <= 1024) || 'The object path is required.'),
    textSchema(1, 1024),
  ),
  previewPath: optional(nullable(string())),
  type: AssetTypeParam,
  size: SizeField,
  /**
   * Issue 35: the folder the file sat in inside a folder the customer dropped ("DCIM/100MSDCF"),
   * kept as the asset's folder (shown, and its folder in zips). The server cleans it
   * (src/domain/camera-card.ts `cleanFolder`); absent or null for a file picked alone.
   */
  folder: optional(nullable(FolderField)),
  /**
   * Issue 35: the CRC-32 of the file as this device read it, combined from the parts it sent
   * (each checked by the store on arrival). Kept beside the CRC-32 the server reads back from
   * the store: equal, the asset is verified.
   */
  crc32: optional(nullable(Crc32Field)),
});
export type RegisterAssetBody = Infer<typeof RegisterAssetBodyStruct>;

const FingerprintField = ruleField('fingerprint', (v) => (FINGERPRINT_PATTERN.test(v) ? undefined : 'A fingerprint is 64 lower-case hex digits.'), {
  type: 'string',
  pattern: FINGERPRINT_PATTERN.source,
});

/** POST projects/{id}/assets/copies/lookup (issue 35): is this file's stored copy in the organization already? */
export const StoredCopyLookupBodyStruct = object({ size: SizeField, fingerprint: FingerprintField });
export type StoredCopyLookupBody = Infer<typeof StoredCopyLookupBodyStruct>;
/**
 * Whether there is one. Its CRC-32 is not told: the device sends the whole file's with the reuse,
 * and the server compares (a sampled fingerprint alone never hands out an object).
 */
export const StoredCopyStruct = object({ found: boolean() });
export type StoredCopy = Infer<typeof StoredCopyStruct>;

/**
 * POST projects/{id}/assets/copies (issue 35): the file is an asset of this project without a
 * byte sent, made from the organization's stored copy of the same size, fingerprint and CRC-32.
 */
export const ReuseStoredCopyBodyStruct = object({
  name: FileName(),
  type: AssetTypeParam,
  size: SizeField,
  fingerprint: FingerprintField,
  /** The whole file's CRC-32 as this device read it: the stored copy's must be the same. */
  crc32: Crc32Field,
  folder: optional(nullable(FolderField)),
});
export type ReuseStoredCopyBody = Infer<typeof ReuseStoredCopyBodyStruct>;

/** C§3 asset, with short-lived addresses to show it (presigned GET). */
export const AssetStruct = object({
  id: number(),
  name: string(),
  size: number(),
  type: object({ name: enums(ASSET_TYPES) }),
  path: string(),
  previewPath: nullable(string()),
  /** Issue 35: the folder the file sat in inside a dropped folder ("DCIM/100MSDCF"), or null. */
  folder: nullable(string()),
  createdAt: string(),
  deletedAt: nullable(string()),
  /** The original, for previews and downloads; valid for a few hours. */
  url: nullable(string()),
  /** The reduced proxy when the media pipeline made one. */
  previewUrl: nullable(string()),
  /**
   * CRC-32 of the original, once the media worker has read it (issue 14): a raw zip made on
   * this device then takes it instead of computing it over every byte. Null until then.
   */
  crc32: nullable(Crc32Field),
  /**
   * Issue 35: the CRC-32 the uploading device computed over the bytes it sent, or null (uploaded
   * before it was kept). Equal to `crc32`: every byte arrived as it left (src/domain/asset-checksum.ts).
   */
  sentCrc32: nullable(Crc32Field),
});
export type Asset = Infer<typeof AssetStruct>;
export const AssetListStruct = array(AssetStruct);

export const requestUploadCredentials = defineOperation({
  method: 'POST',
  path: '/uploads/credentials',
  access: 'signed-in',
  body: UploadCredentialsBodyStruct,
  answer: UploadCredentialsStruct,
});
export const reportUploadRefusal = defineOperation({ method: 'POST', path: '/uploads/refusals', access: 'signed-in', body: UploadRefusalBodyStruct });
export const listAssets = defineOperation({
  method: 'GET',
  path: '/projects/{id}/assets',
  access: 'signed-in',
  query: AssetListQueryStruct,
  answer: AssetListStruct,
});
export const checkAssetName = defineOperation({
  method: 'GET',
  path: '/projects/{id}/assets/check-name',
  access: 'signed-in',
  query: CheckNameQueryStruct,
  answer: CheckNameStruct,
});
/** 201 with the new asset; an object registered already answers its asset with 200. */
export const registerAsset = defineOperation({
  method: 'POST',
  path: '/projects/{id}/assets',
  access: 'signed-in',
  body: RegisterAssetBodyStruct,
  answer: AssetStruct,
  status: 201,
});
export const lookupStoredCopy = defineOperation({
  method: 'POST',
  path: '/projects/{id}/assets/copies/lookup',
  access: 'signed-in',
  body: StoredCopyLookupBodyStruct,
  answer: StoredCopyStruct,
  status: 200,
});
/** 201 with the new asset (200: made by a concurrent call). 404: no such stored copy, or this project holds it already (upload the file). */
export const reuseStoredCopy = defineOperation({
  method: 'POST',
  path: '/projects/{id}/assets/copies',
  access: 'signed-in',
  body: ReuseStoredCopyBodyStruct,
  answer: AssetStruct,
  status: 201,
});
export const deleteAllAssets = defineOperation({ method: 'DELETE', path: '/projects/{id}/assets', access: 'signed-in', query: AssetDeleteAllQueryStruct });
export const deleteAsset = defineOperation({ method: 'DELETE', path: '/projects/{id}/assets/{assetId}', access: 'signed-in' });
