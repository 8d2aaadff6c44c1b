import { create, number, type, type Struct } from 'superstruct';
import { getOrganization } from '@/domain/contract/customers.ts';
import { operationPath } from '@/domain/contract/define.ts';
import * as uploads from '@/domain/contract/uploads.ts';
import type {
  Asset,
  CheckName,
  RegisterAssetBody,
  ReuseStoredCopyBody,
  StoredCopy,
  StoredCopyLookupBody,
  UploadCredentials,
} from '@/domain/contract/uploads.ts';
import { QUERY_OF_TYPE, type AssetType, type StorageFigures, type UploadType } from '@/domain/uploads.ts';

/** The server calls an upload makes (C§7), checked against the shared contract. */

export class ApiFailure extends Error {
  readonly status: number;
  readonly code: number | undefined;
  constructor(status: number, message: string, code?: number) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
  }
}

/** Only the storage figures of GET organizations/{id} (the rest of the answer may grow). */
const StorageFiguresStruct = type({ storage: number(), usedSpace: number() });

export interface ServerApi {
  storage(organizationId: number): Promise<StorageFigures>;
  checkName(projectId: number, type: AssetType, name: string): Promise<CheckName>;
  credentials(projectId: number, uploadType: UploadType): Promise<UploadCredentials>;
  registerAsset(projectId: number, body: Omit<RegisterAssetBody, 'type'> & { type: AssetType }): Promise<Asset>;
  /** Issue 35: the CRC-32 of the organization's stored copy of a file of this size and fingerprint, or null. */
  lookupStoredCopy(projectId: number, body: StoredCopyLookupBody): Promise<StoredCopy>;
  /** Issue 35: the file as an asset of its stored copy (404 ApiFailure: none any more). */
  reuseStoredCopy(projectId: number, body: Omit<ReuseStoredCopyBody, 'type'> & { type: AssetType }): Promise<Asset>;
  /** Tells the server a proxy refused an upload request of `bytes` bytes with a 413 (for its log). */
  reportProxyRefusal(projectId: number, bytes: number): Promise<void>;
}

export interface ServerApiOptions {
  /** e.g. `https://app.example.com/api/v1`. */
  baseUrl: string;
  getToken: () => string | null;
  fetchImpl?: typeof fetch;
}

export function createServerApi({ baseUrl, getToken, fetchImpl = fetch }: ServerApiOptions): ServerApi {
  async function send(method: string, path: string, body?: unknown): Promise<Response> {
    const token = getToken();
    try {
      return await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ApiFailure(0, error instanceof Error ? error.message : 'network error');
    }
  }
  async function call<T, S>(method: string, path: string, struct: Struct<T, S>, body?: unknown): Promise<T> {
    const response = await send(method, path, body);
    const data = (await response.json().catch(() => ({}))) as { message?: string; code?: number };
    if (!response.ok) throw new ApiFailure(response.status, data.message ?? `HTTP ${response.status}`, data.code);
    return create(data, struct);
  }
  return {
    async storage(organizationId) {
      const organization = await call(getOrganization.method, operationPath(getOrganization.path, { id: organizationId }), StorageFiguresStruct);
      return { storageTb: organization.storage, usedSpace: organization.usedSpace };
    },
    checkName: (projectId, type, name) =>
      call(
        uploads.checkAssetName.method,
        `${operationPath(uploads.checkAssetName.path, { id: projectId })}?type=${QUERY_OF_TYPE[type]}&name=${encodeURIComponent(name)}`,
        uploads.CheckNameStruct,
      ),
    credentials: (projectId, uploadType) =>
      call(uploads.requestUploadCredentials.method, operationPath(uploads.requestUploadCredentials.path), uploads.UploadCredentialsStruct, {
        projectId,
        uploadType,
      }),
    registerAsset: (projectId, body) =>
      call(uploads.registerAsset.method, operationPath(uploads.registerAsset.path, { id: projectId }), uploads.AssetStruct, {
        ...body,
        type: QUERY_OF_TYPE[body.type],
      }),
    lookupStoredCopy: (projectId, body) =>
      call(uploads.lookupStoredCopy.method, operationPath(uploads.lookupStoredCopy.path, { id: projectId }), uploads.StoredCopyStruct, body),
    reuseStoredCopy: (projectId, body) =>
      call(uploads.reuseStoredCopy.method, operationPath(uploads.reuseStoredCopy.path, { id: projectId }), uploads.AssetStruct, {
        ...body,
        type: QUERY_OF_TYPE[body.type],
      }),
    async reportProxyRefusal(projectId, bytes) {
      const response = await send(uploads.reportUploadRefusal.method, operationPath(uploads.reportUploadRefusal.path), { projectId, status: 413, bytes });
      if (!response.ok) throw new ApiFailure(response.status, `HTTP ${response.status}`);
    },
  };
}
