import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { sessionPolicy, stsCredentialIssuer } from '../../server/storage/upload-credentials.ts';

/** STS credentials cannot be bound to the session (see stsCredentialIssuer): it is passed, and not sent. */
const session = { sessionVersion: 2, impersonatorId: null, impersonatorSessionVersion: null };

/** The production path: STS AssumeRole with a session policy, against a local stand-in for STS. */
describe('STS upload credentials', () => {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let answer = { status: 200, body: '' };
  const sts = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answer.status, { 'content-type': 'text/xml' }).end(answer.body);
    });
  });
  let endpoint = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'cutdesk-sts-'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => sts.listen(0, '127.0.0.1', resolve));
    const address = sts.address();
    endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => sts.close(() => resolve()));
  });

  const storage = () =>
    loadConfig({
      DATA_DIR: dataDir,
      S3_ENDPOINT: 'https://s3.eu-central-1.amazonaws.com',
      S3_BUCKET: 'media-bucket',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIASERVER',
      S3_SECRET_ACCESS_KEY: 'server-secret-key-123',
      S3_UPLOAD_ROLE_ARN: 'arn:aws:iam::123456789012:role/cutdesk-upload',
      S3_STS_ENDPOINT: endpoint,
    }).storage;

  it('asks AssumeRole, signed for sts, with a session policy limited to the prefix, and reads the credentials', async () => {
    answer = {
      status: 200,
      body: `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIATEMP</AccessKeyId><SecretAccessKey>temp/secret+key</SecretAccessKey><SessionToken>token&amp;more</SessionToken><Expiration>2026-11-21T12:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`,
    };
    const issued = await stsCredentialIssuer(storage()).issue({ userId: 4, projectId: 12, prefix: 'projects/12/raw/', lifetimeSeconds: 3600, session });
    expect(issued).toEqual({
      accessKeyId: 'ASIATEMP',
      secretAccessKey: 'temp/secret+key',
      sessionToken: 'token&more',
      expiration: new Date('2026-11-21T12:00:00Z'),
    });
    const { headers, body } = received.at(-1)!;
    expect(String(headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIASERVER\/\d{8}\/eu-central-1\/sts\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/,
    );
    const form = new URLSearchParams(body);
    expect(Object.fromEntries(form)).toMatchObject({
      Action: 'AssumeRole',
      Version: '2011-06-15',
      RoleArn: 'arn:aws:iam::123456789012:role/cutdesk-upload',
      RoleSessionName: 'cutdesk-u4-p12',
      DurationSeconds: '3600',
    });
    expect(JSON.parse(form.get('Policy')!)).toEqual(JSON.parse(sessionPolicy('media-bucket', 'projects/12/raw/', { refuseOverwrites: true })));
    // The same three actions on the prefix only; on AWS a write that creates the object
    // (PutObject, CompleteMultipartUpload) only with If-None-Match: *, so nothing is replaced.
    const resource = 'arn:aws:s3:::media-bucket/projects/12/raw/*';
    expect(JSON.parse(form.get('Policy')!)).toEqual({
      Version: '2012-10-17',
      Statement: [
        { Sid: 'CreateOnlyWhenAbsent', Effect: 'Allow', Action: 's3:PutObject', Resource: resource, Condition: { StringEquals: { 's3:if-none-match': '*' } } },
        { Sid: 'MultipartParts', Effect: 'Allow', Action: 's3:PutObject', Resource: resource, Condition: { Bool: { 's3:ObjectCreationOperation': 'false' } } },
        { Sid: 'MultipartHousekeeping', Effect: 'Allow', Action: ['s3:AbortMultipartUpload', 's3:ListMultipartUploadParts'], Resource: resource },
      ],
    });
  });

  it('decodes escaped text once (a double-escaped value stays escaped once)', async () => {
    answer = {
      status: 200,
      body: `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIATEMP</AccessKeyId><SecretAccessKey>a&amp;lt;b</SecretAccessKey><SessionToken>tok&amp;amp;en&amp;quot;x&lt;y</SessionToken><Expiration>2026-11-21T12:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`,
    };
    const issued = await stsCredentialIssuer(storage()).issue({ userId: 4, projectId: 12, prefix: 'projects/12/raw/', lifetimeSeconds: 3600, session });
    expect(issued).toMatchObject({ secretAccessKey: 'a&lt;b', sessionToken: 'tok&amp;en&quot;x<y' });
  });

  it('keeps the policy free of AWS-only condition keys for other S3 services', async () => {
    answer = {
      status: 200,
      body: `<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>ASIATEMP</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken><Expiration>2026-11-21T12:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`,
    };
    await stsCredentialIssuer({ ...storage(), endpoint: 'https://minio.example.com' }).issue({
      userId: 4,
      projectId: 12,
      prefix: 'projects/12/raw/',
      lifetimeSeconds: 600,
      session,
    });
    const form = new URLSearchParams(received.at(-1)!.body);
    expect(form.get('DurationSeconds')).toBe('900');
    expect(JSON.parse(form.get('Policy')!)).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
          Resource: 'arn:aws:s3:::media-bucket/projects/12/raw/*',
        },
      ],
    });
  });

  it("signs with the SDK's default credential chain when no keys are configured", async () => {
    answer = {
      status: 200,
      body: `<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>ASIATEMP</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken><Expiration>2026-11-21T12:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`,
    };
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAFROMCHAIN');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'chain-secret-key-123');
    try {
      await stsCredentialIssuer({ ...storage(), accessKeyId: '', secretAccessKey: '' }).issue({
        userId: 4,
        projectId: 12,
        prefix: 'projects/12/raw/',
        lifetimeSeconds: 3600,
        session,
      });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(String(received.at(-1)!.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFROMCHAIN\/\d{8}\/eu-central-1\/sts\/aws4_request, /);
  });

  it("fails with STS's own error", async () => {
    answer = {
      status: 403,
      body: '<ErrorResponse><Error><Code>AccessDenied</Code><Message>not authorized to perform sts:AssumeRole</Message></Error></ErrorResponse>',
    };
    await expect(stsCredentialIssuer(storage()).issue({ userId: 1, projectId: 1, prefix: 'projects/1/raw/', lifetimeSeconds: 3600, session })).rejects.toThrow(
      /AccessDenied.*sts:AssumeRole/,
    );
  });

  it('is required configuration with an external S3 endpoint', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_ENDPOINT: 'https://s3.example.com', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' })).toThrow(
      /S3_UPLOAD_ROLE_ARN is required/,
    );
  });

  it("has no STS with S3_UPLOAD_CREDENTIALS=database (another instance's embedded store), which needs the shared database and the store's key pair", () => {
    const shared = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db/cutdesk',
      S3_ENDPOINT: 'http://store.internal:8080/s3',
      S3_ACCESS_KEY_ID: 'AKIASTORE',
      S3_SECRET_ACCESS_KEY: 'store-secret-key-123',
      S3_UPLOAD_CREDENTIALS: 'database',
    });
    expect(shared.storage).toMatchObject({ mode: 'external', endpoint: 'http://store.internal:8080/s3', uploadCredentials: 'database', uploadRoleArn: null });
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        S3_ENDPOINT: 'http://store.internal:8080/s3',
        S3_ACCESS_KEY_ID: 'AKIASTORE',
        S3_SECRET_ACCESS_KEY: 'store-secret-key-123',
        S3_UPLOAD_CREDENTIALS: 'database',
      }),
    ).toThrow(/needs DATABASE_URL/);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/cutdesk', S3_ENDPOINT: 'http://store.internal:8080/s3', S3_UPLOAD_CREDENTIALS: 'database' }),
    ).toThrow(/key pair/);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, S3_ENDPOINT: 'https://s3.example.com', S3_UPLOAD_ROLE_ARN: 'arn:aws:iam::1:role/u', S3_UPLOAD_CREDENTIALS: 'magic' }),
    ).toThrow(/"sts" or "database"/);
  });

  it('needs no static keys with an external endpoint (the default credential chain), but refuses half a pair', () => {
    const chain = loadConfig({
      DATA_DIR: dataDir,
      S3_ENDPOINT: 'https://s3.us-east-1.amazonaws.com',
      S3_UPLOAD_ROLE_ARN: 'arn:aws:iam::123456789012:role/upload',
    });
    expect(chain.storage).toMatchObject({ mode: 'external', accessKeyId: '', secretAccessKey: '' });
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, S3_ENDPOINT: 'https://s3.example.com', S3_UPLOAD_ROLE_ARN: 'arn:aws:iam::1:role/u', S3_ACCESS_KEY_ID: 'a' }),
    ).toThrow(/go together/);
  });
});
