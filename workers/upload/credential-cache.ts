import { CREDENTIALS_REFRESH_MARGIN_MS, type UploadType } from '@/domain/uploads.ts';
import { createS3Client, type S3Client, type S3Session } from '../s3-client.ts';
import type { ServerApi } from '../server-api.ts';
import type { Transport } from '../transport.ts';

/**
 * Temporary upload credentials (ARCHITECTURE §4), one set per project and upload type, and the
 * S3 client signing with them. Credentials are fetched when first needed, renewed 5 minutes
 * before they expire, fetched once for every request waiting on them, and dropped when the
 * store says they no longer work.
 */

interface CachedSession {
  session: S3Session | null;
  /** The credentials request in flight, shared by every caller until it settles. */
  pending: Promise<S3Session> | null;
}

export interface CredentialCacheOptions {
  api: ServerApi;
  transport: Transport;
  now: () => number;
  /** Told the store endpoint of every new set of credentials (the engine sizes its part slots with it). */
  onEndpoint?: (endpoint: string) => void;
}

export class CredentialCache {
  private readonly clients = new Map<string, S3Client>();
  private readonly sessions = new Map<string, CachedSession>();
  private readonly options: CredentialCacheOptions;

  constructor(options: CredentialCacheOptions) {
    this.options = options;
  }

  /** The S3 client of a project and upload type; it asks this cache for credentials before each request. */
  clientFor(projectId: number, uploadType: UploadType): S3Client {
    const key = keyOf(projectId, uploadType);
    let client = this.clients.get(key);
    if (!client) {
      client = createS3Client(this.options.transport, () => this.session(key, projectId, uploadType));
      this.clients.set(key, client);
    }
    return client;
  }

  /** The store refused the credentials (expired, revoked): the next request fetches new ones. */
  forget(projectId: number, uploadType: UploadType): void {
    const cached = this.sessions.get(keyOf(projectId, uploadType));
    if (cached) cached.session = null;
  }

  /** Current credentials for a project, renewed 5 minutes before they expire. */
  private async session(key: string, projectId: number, uploadType: UploadType): Promise<S3Session> {
    let cached = this.sessions.get(key);
    if (!cached) {
      cached = { session: null, pending: null };
      this.sessions.set(key, cached);
    }
    const { session } = cached;
    if (session && session.expiresAt - (this.options.now() + session.clockOffsetMs) > CREDENTIALS_REFRESH_MARGIN_MS) return session;
    const entry = cached;
    entry.pending ??= this.options.api
      .credentials(projectId, uploadType)
      .then((c) => {
        const fresh: S3Session = {
          endpoint: c.endpoint,
          bucket: c.bucket,
          region: c.region,
          forcePathStyle: c.forcePathStyle,
          accessKeyId: c.accessKeyId,
          secretAccessKey: c.secretAccessKey,
          sessionToken: c.sessionToken,
          expiresAt: Date.parse(c.expiration),
          clockOffsetMs: Date.parse(c.serverTime) - this.options.now(),
        };
        entry.session = fresh;
        this.options.onEndpoint?.(c.endpoint);
        return fresh;
      })
      .finally(() => {
        entry.pending = null;
      });
    return entry.pending;
  }
}

function keyOf(projectId: number, uploadType: UploadType): string {
  return `${projectId}:${uploadType}`;
}
