import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StorageConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { embeddedS3Plugin } from './embedded-s3/index.ts';
import type { ObjectFiles } from './embedded-s3/object-files.ts';
import { withLocalReads } from './local-reads.ts';
import { createObjectStore, type ObjectStore } from './object-store.ts';
import { appOriginFor, storeOriginFor } from './store-listener.ts';
import { embeddedCredentialIssuer, embeddedCredentialResolver, stsCredentialIssuer, type UploadCredentialIssuer } from './upload-credentials.ts';

/** Where the embedded store is mounted, beside /api/v1 and the web app. */
export const EMBEDDED_S3_PREFIX = '/s3';

/** A store that is not connected yet: the embedded one needs the server to listen first. */
function notConnected(bucket: string): ObjectStore {
  const fail = async (): Promise<never> => {
    throw new Error('Object storage is not connected yet: call connectStorage(app) once the server listens.');
  };
  return {
    bucket,
    headObject: fail,
    putObject: fail,
    getObjectStream: fail,
    deleteObject: fail,
    deleteObjects: fail,
    presignGet: fail,
    listParts: fail,
    abortMultipartUpload: fail,
    listMultipartUploads: fail,
    ensureBucket: fail,
    destroy: () => undefined,
  };
}

function storeFor(storage: StorageConfig, endpoint: string): ObjectStore {
  return createObjectStore({
    endpoint,
    region: storage.region,
    bucket: storage.bucket,
    accessKeyId: storage.accessKeyId,
    secretAccessKey: storage.secretAccessKey,
    forcePathStyle: storage.forcePathStyle,
  });
}

export interface StorageParts {
  storage: ObjectStore;
  uploadCredentials: UploadCredentialIssuer;
}

/**
 * Mounts the embedded S3 endpoint at /s3 (embedded mode) and answers the storage plugin's parts:
 * the object store (connected at once for an external service, after listen for the
 * embedded one) and the credential issuer.
 */
/**
 * The page origins the embedded store answers CORS for (issue 36), besides a request's own:
 * PUBLIC_URL's, S3_CORS_ORIGINS, and for a request on the store's own port the app's origin at
 * the same host (the page that was handed that port for its uploads: browserUploadEndpoint).
 */
function storeCorsOrigins(app: FastifyInstance, options: { storage: StorageConfig; publicUrl?: string }): (origin: string, request: FastifyRequest) => boolean {
  const fixed = new Set(options.storage.corsOrigins ?? []);
  if (options.publicUrl) {
    try {
      fixed.add(new URL(options.publicUrl).origin);
    } catch {
      // Not an address: nothing to add.
    }
  }
  return (origin, request) => fixed.has(origin) || origin === appOriginFor(app, request);
}

export async function registerStorage(
  app: FastifyInstance,
  options: { storage: StorageConfig; dataDir: string; db: Db; publicUrl?: string },
): Promise<StorageParts> {
  const { storage, db } = options;
  if (storage.mode === 'external') {
    // Another instance's embedded store on this database checks the credentials recorded here.
    const uploadCredentials = storage.uploadCredentials === 'database' ? embeddedCredentialIssuer(db, storage) : stsCredentialIssuer(storage);
    return { storage: storeFor(storage, storage.endpoint!), uploadCredentials };
  }
  await app.register(embeddedS3Plugin, {
    prefix: EMBEDDED_S3_PREFIX,
    root: join(options.dataDir, 's3'),
    bucket: storage.bucket,
    region: storage.region,
    credentials: embeddedCredentialResolver(db, storage),
    allowOrigin: storeCorsOrigins(app, { storage, publicUrl: options.publicUrl }),
    onObjects: (objects) => void embeddedObjects.set(app, objects),
  });
  return { storage: notConnected(storage.bucket), uploadCredentials: embeddedCredentialIssuer(db, storage) };
}

const connections = new WeakMap<FastifyInstance, Promise<void>>();
/** The embedded store's objects, for this server's own whole-object reads (local-reads.ts). */
const embeddedObjects = new WeakMap<FastifyInstance, ObjectFiles>();

/**
 * Connects the store once the server listens: the embedded one is reached over HTTP through
 * this server's own /s3 (loopback), like any other S3 client. Creates the bucket when missing.
 * One connection per app: the storage plugin starts it when the server listens
 * (server/plugins/storage.ts), and every later call (main.ts, the jobs plugin, tests) answers
 * that same connection, failed or not.
 */
export function connectStorage(app: FastifyInstance): Promise<void> {
  let connection = connections.get(app);
  if (!connection) {
    connection = connect(app);
    connections.set(app, connection);
  }
  return connection;
}

/**
 * The object store's address as this server reaches it: the external endpoint, or the embedded
 * store on this server's own listening address (loopback for a wildcard); null before listening.
 */
export function serverStoreEndpoint(app: FastifyInstance): string | null {
  const storage = app.ctx.config.storage;
  if (storage.mode === 'external') return storage.endpoint ?? null;
  const address = app.server.address();
  if (!address || typeof address === 'string') return null;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}${EMBEDDED_S3_PREFIX}`;
}

async function connect(app: FastifyInstance): Promise<void> {
  const storage = app.ctx.config.storage;
  if (storage.mode === 'embedded') {
    const endpoint = serverStoreEndpoint(app);
    if (!endpoint) throw new Error('connectStorage: the server is not listening on a TCP port');
    app.storage.destroy();
    const objects = embeddedObjects.get(app);
    app.storage = objects ? withLocalReads(storeFor(storage, endpoint), objects) : storeFor(storage, endpoint);
  }
  await app.storage.ensureBucket();
}

/**
 * The S3 endpoint browsers use: the configured public one, else the external endpoint, else
 * this server's own /s3 as the browser reached it (Host and protocol of the request).
 */
export function browserEndpoint(app: FastifyInstance, request: FastifyRequest): string {
  const storage = app.ctx.config.storage;
  if (storage.publicEndpoint) return storage.publicEndpoint;
  if (storage.mode === 'external') return storage.endpoint!;
  return `${request.protocol}://${request.host}${EMBEDDED_S3_PREFIX}`;
}

/**
 * The S3 endpoint the browser uploads to: the embedded store's own listener when the browser
 * reaches this server directly (six connections for the parts, none taken by the page's own
 * requests: server/storage/store-listener.ts), else the same endpoint as everything else.
 * Presigned GETs stay on `browserEndpoint`: one stream each, and their URLs outlive a restart.
 */
export function browserUploadEndpoint(app: FastifyInstance, request: FastifyRequest): string {
  const storage = app.ctx.config.storage;
  if (storage.publicEndpoint || storage.mode === 'external') return browserEndpoint(app, request);
  return storeOriginFor(app, request) ?? browserEndpoint(app, request);
}

const presigners = new WeakMap<FastifyInstance, Map<string, ObjectStore>>();

/**
 * A store signing for the browser's endpoint (the Host is part of a SigV4 signature, so a URL
 * signed for 127.0.0.1 would not work from another address). Only used to presign.
 */
export function browserPresigner(app: FastifyInstance, request: FastifyRequest): ObjectStore {
  const endpoint = browserEndpoint(app, request);
  let byEndpoint = presigners.get(app);
  if (!byEndpoint) {
    byEndpoint = new Map();
    presigners.set(app, byEndpoint);
  }
  let store = byEndpoint.get(endpoint);
  if (!store) {
    if (byEndpoint.size >= 16) {
      for (const each of byEndpoint.values()) each.destroy();
      byEndpoint.clear();
    }
    store = storeFor(app.ctx.config.storage, endpoint);
    byEndpoint.set(endpoint, store);
  }
  return store;
}

/** Closes the storage clients with the server. */
export function closeStorage(app: FastifyInstance): void {
  app.storage.destroy();
  for (const each of presigners.get(app)?.values() ?? []) each.destroy();
  presigners.delete(app);
}
