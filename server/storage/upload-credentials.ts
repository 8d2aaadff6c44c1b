import { createHmac, randomBytes } from 'node:crypto';
import type { StorageConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { type SessionClaims } from '../../src/domain/session-standing.ts';
import { credentialStillAllowed, type CredentialStanding } from '../../src/domain/upload-standing.ts';
import type { CredentialResolver, S3Principal } from './embedded-s3/index.ts';
import { storageCredentialsRepo } from '../repositories/storage-credentials.ts';

/**
 * Temporary credentials for browsers, limited to one key prefix (ARCHITECTURE §1 "upload
 * credentials"). Embedded store: issued here and verified by the store through
 * `embeddedCredentialResolver`. Any other S3 service: STS AssumeRole with a session policy.
 */

export interface IssuedCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

export interface CredentialRequest {
  userId: number;
  projectId: number;
  /** Every key the credentials may write starts with this. */
  prefix: string;
  lifetimeSeconds: number;
  /**
   * The session asking (its token's claims): embedded credentials end with it, like the token
   * (issue 9). STS credentials cannot be ended early; see stsCredentialIssuer.
   */
  session: SessionClaims;
}

export interface UploadCredentialIssuer {
  issue(request: CredentialRequest): Promise<IssuedCredentials>;
}

// ——— Embedded ———

/** Temporary access key ids look like AWS's (ASIA…), so logs and tools treat them alike. */
const TEMPORARY_PREFIX = 'ASIA';

/** Secret and session token of a temporary key id, derived with the store's own secret: nothing secret is stored. */
function derive(serverSecret: string, accessKeyId: string) {
  const mac = (purpose: string) => createHmac('sha256', serverSecret).update(`${purpose}:${accessKeyId}`).digest('base64url');
  return { secretAccessKey: mac('secret').slice(0, 40), sessionToken: `cutdesk-${mac('token')}` };
}

export function embeddedCredentialIssuer(db: Db, storage: StorageConfig): UploadCredentialIssuer {
  return {
    async issue({ userId, projectId, prefix, lifetimeSeconds, session }) {
      const accessKeyId = `${TEMPORARY_PREFIX}${randomBytes(10).toString('hex').toUpperCase()}`;
      const expiration = new Date(Date.now() + lifetimeSeconds * 1000);
      await storageCredentialsRepo(db).insert({
        accessKeyId,
        userId,
        projectId,
        allowedPrefix: prefix,
        expiresAt: expiration,
        sessionVersion: session.sessionVersion,
        impersonatorId: session.impersonatorId,
        // Only with an impersonator: the look-up compares it only then.
        impersonatorSessionVersion: session.impersonatorId === null ? null : session.impersonatorSessionVersion,
      });
      return { accessKeyId, ...derive(storage.secretAccessKey, accessKeyId), expiration };
    },
  };
}

/**
 * A credential with what it depends on: the session that asked for it, and its user, the
 * impersonating admin (if any) and its project as they are now. One query per look-up.
 */
async function credentialRow(db: Db, accessKeyId: string): Promise<(CredentialStanding & { expiresAt: Date }) | undefined> {
  const row = await storageCredentialsRepo(db).withStanding(accessKeyId);
  if (!row) return undefined;
  return {
    projectId: row.projectId,
    allowedPrefix: row.allowedPrefix,
    expiresAt: row.expiresAt,
    session: { sessionVersion: row.sessionVersion, impersonatorId: row.impersonatorId, impersonatorSessionVersion: row.impersonatorSessionVersion },
    user:
      row.role && row.isEnabled !== null && row.userSessionVersion !== null
        ? { role: row.role, isEnabled: row.isEnabled, organizationId: row.userOrganizationId, sessionVersion: row.userSessionVersion }
        : null,
    impersonator:
      row.adminRole && row.adminIsEnabled !== null && row.adminSessionVersion !== null
        ? { role: row.adminRole, isEnabled: row.adminIsEnabled, sessionVersion: row.adminSessionVersion }
        : null,
    project: row.status && row.organizationId !== null ? { status: row.status, organizationId: row.organizationId } : null,
  };
}

/**
 * How long a look-up stands. Revocation (issue 9: the project's status, the user's or the
 * impersonating admin's session ending) takes effect at the next look-up, so this is also the
 * longest a revoked credential keeps working: the documented bound, traded for one query per
 * key id per 30 s instead of one per multipart part.
 */
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * The embedded store's principals: the server's own key pair (unrestricted) and the
 * temporary ones issued above (their prefix, their expiry, and whether their session, user
 * and project still allow the upload). Looked up once per key id every 30 s, not on every part
 * a browser sends. `clock` is the cache's clock (tests move it instead of waiting 30 s); the
 * default reads Date.now at each call, not a reference taken once, so a faked Date counts too.
 */
export function embeddedCredentialResolver(db: Db, storage: StorageConfig, clock: () => number = () => Date.now()): CredentialResolver {
  const cache = new Map<string, { principal: S3Principal | null; at: number }>();
  return {
    async lookup(accessKeyId) {
      if (accessKeyId === storage.accessKeyId) return { secretAccessKey: storage.secretAccessKey };
      if (!accessKeyId.startsWith(TEMPORARY_PREFIX)) return null;
      const now = clock();
      const hit = cache.get(accessKeyId);
      if (hit && now - hit.at < CACHE_MS) return hit.principal;
      const row = await credentialRow(db, accessKeyId);
      // A credential whose session ended, or whose user or project no longer allows the upload,
      // is expired from now on (ExpiredToken): the worker asks for new credentials and hears
      // why not (401 for an ended session, 409/403 for the project; issue 9).
      const expiresAt = row && !credentialStillAllowed(row) ? new Date(Math.min(now, row.expiresAt.getTime())) : row?.expiresAt;
      const principal: S3Principal | null = row
        ? { ...derive(storage.secretAccessKey, accessKeyId), allowedPrefix: row.allowedPrefix, expiresAt, uploadOnly: true }
        : null;
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(accessKeyId, { principal, at: now });
      return principal;
    },
  };
}

// ——— STS (production) ———

/**
 * Whether upload credentials can never replace an object that exists: the embedded store's (and
 * another instance's, `database`) refuse it, and on AWS S3 the session policy does; other S3
 * services get no such condition. Registered objects are then immutable.
 */
export function uploadsRefuseOverwrites(storage: Pick<StorageConfig, 'mode' | 'uploadCredentials' | 'endpoint'>): boolean {
  return storage.mode === 'embedded' || storage.uploadCredentials === 'database' || isAwsS3(storage.endpoint);
}

/** Whether the S3 service is AWS's own (it knows the conditional-write condition keys). */
function isAwsS3(endpoint: string | null): boolean {
  if (!endpoint) return false;
  const host = new URL(endpoint).hostname;
  return host.endsWith('.amazonaws.com') || host.endsWith('.amazonaws.com.cn');
}

/**
 * The session policy: the temporary credentials may run uploads (single and multipart) under
 * `prefix` and nothing else, whatever the role itself allows. With `refuseOverwrites` (AWS S3)
 * the requests that create an object — PutObject and CompleteMultipartUpload, the ones where
 * `s3:ObjectCreationOperation` is true — are allowed only with `If-None-Match: *`
 * (`s3:if-none-match`), so no upload can replace an existing object; CreateMultipartUpload and
 * UploadPart, which take no conditional header, stay allowed by the second statement.
 */
export function sessionPolicy(bucket: string, prefix: string, { refuseOverwrites }: { refuseOverwrites: boolean }): string {
  const Resource = `arn:aws:s3:::${bucket}/${prefix}*`;
  const Action = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: refuseOverwrites
      ? [
          { Sid: 'CreateOnlyWhenAbsent', Effect: 'Allow', Action: 's3:PutObject', Resource, Condition: { StringEquals: { 's3:if-none-match': '*' } } },
          { Sid: 'MultipartParts', Effect: 'Allow', Action: 's3:PutObject', Resource, Condition: { Bool: { 's3:ObjectCreationOperation': 'false' } } },
          { Sid: 'MultipartHousekeeping', Effect: 'Allow', Action: Action.slice(1), Resource },
        ]
      : [{ Effect: 'Allow', Action, Resource }],
  });
}

/**
 * STS AssumeRole through `@aws-sdk/client-sts`. Works with AWS STS and with S3-compatible
 * services that offer AssumeRole (MinIO, Ceph RGW; `S3_STS_ENDPOINT`). The server's identity is
 * S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY when configured, else the SDK's default credential chain
 * (environment, shared config and SSO profiles, web identity, ECS task and EC2 instance roles).
 *
 * Unlike the embedded store's, these credentials cannot be revoked one by one: the S3 service
 * checks them without asking us, so `request.session` is not consulted. They are short-lived
 * instead: CREDENTIALS_LIFETIME_SECONDS (1 h; STS's floor is 15 min). A password reset, a
 * disable or the impersonating admin's revocation therefore stops new credentials at once
 * (the token is refused) but leaves issued ones working until they expire, at most 1 h, and
 * only under the one project's upload prefix (sessionPolicy).
 */
export function stsCredentialIssuer(storage: StorageConfig): UploadCredentialIssuer {
  // The STS client (the AWS SDK) is loaded with the first credentials asked for (issue 14).
  let client: Promise<{ sdk: typeof import('@aws-sdk/client-sts'); sts: import('@aws-sdk/client-sts').STSClient }> | undefined;
  const stsClient = () =>
    (client ??= import('@aws-sdk/client-sts').then((sdk) => ({
      sdk,
      sts: new sdk.STSClient({
        region: storage.region,
        ...(storage.stsEndpoint && { endpoint: storage.stsEndpoint }),
        ...(storage.accessKeyId && storage.secretAccessKey && { credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey } }),
      }),
    })));
  const refuseOverwrites = uploadsRefuseOverwrites(storage);
  return {
    async issue({ userId, projectId, prefix, lifetimeSeconds }) {
      const { sdk, sts } = await stsClient();
      let answer;
      try {
        answer = await sts.send(
          new sdk.AssumeRoleCommand({
            RoleArn: storage.uploadRoleArn ?? '',
            RoleSessionName: `cutdesk-u${userId}-p${projectId}`,
            // STS allows 15 minutes to the role's maximum session.
            DurationSeconds: Math.max(900, lifetimeSeconds),
            Policy: sessionPolicy(storage.bucket, prefix, { refuseOverwrites }),
          }),
        );
      } catch (error) {
        if (!(error instanceof sdk.STSServiceException)) throw error;
        throw new Error(`STS AssumeRole failed (${error.$metadata.httpStatusCode ?? '?'} ${error.name}): ${error.message}`, { cause: error });
      }
      const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = answer.Credentials ?? {};
      if (!AccessKeyId || !SecretAccessKey || !SessionToken || !Expiration) throw new Error('STS AssumeRole answered without credentials');
      return { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken, expiration: Expiration };
    },
  };
}
