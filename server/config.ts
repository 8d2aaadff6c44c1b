import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything the server reads from its environment, checked once at start. */
export interface Config {
  port: number;
  host: string;
  /** Public address used in e-mailed links. */
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL server; when absent PGlite runs embedded in `dataDir/db`. */
  databaseUrl: string | null;
  /** SMTP server; when absent mail goes to `dataDir/outbox`. */
  smtpUrl: string | null;
  mailFrom: string;
  jwtSecret: string;
  /** Demo data on first start: 'demo' (default) or 'none'. */
  seed: 'demo' | 'none';
  demoPassword: string | null;
  /** reCAPTCHA v3 secret; when absent the embedded scorer answers. */
  recaptchaSecret: string | null;
  rateLimit: { windowMs: number; perIp: number; perEmail: number };
  /** Directory holding the built PWA. */
  webDir: string;
  logLevel: string;
  /** Object storage for every object the product keeps (see StorageConfig). */
  storage: StorageConfig;
}

/**
 * Object storage. Without S3_ENDPOINT the server serves its own S3-compatible endpoint at
 * /s3 (files under `dataDir/s3`); with it, any S3-compatible service.
 */
export interface StorageConfig {
  mode: 'embedded' | 'external';
  /** External S3 endpoint the server talks to; null when embedded. */
  endpoint: string | null;
  /** Endpoint browsers use (presigned GETs, direct uploads) when it differs from `endpoint`. */
  publicEndpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** External mode: the role AssumeRole issues upload credentials for (STS). */
  uploadRoleArn: string | null;
  /** STS endpoint; defaults to AWS's regional one. */
  stsEndpoint: string | null;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

function positiveInt(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    problems.push(`${name} must be a positive whole number (got "${raw}")`);
    return fallback;
  }
  return value;
}

/** Embedded object store: its own access key pair, generated once like the JWT secret. */
function embeddedS3KeysFor(dataDir: string): { accessKeyId: string; secretAccessKey: string } {
  const file = join(dataDir, 's3-credentials.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { accessKeyId: string; secretAccessKey: string };
  const keys = { accessKeyId: `AKIA${randomBytes(10).toString('hex').toUpperCase().slice(0, 16)}`, secretAccessKey: randomBytes(30).toString('base64url') };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

function storageConfig(env: Env, dataDir: string, problems: string[]): StorageConfig {
  const endpoint = env.S3_ENDPOINT || null;
  const isUrl = (value: string) => /^https?:\/\/[^/]/.test(value);
  if (endpoint && !isUrl(endpoint)) problems.push('S3_ENDPOINT must be an http(s) address');
  if (env.S3_PUBLIC_ENDPOINT && !isUrl(env.S3_PUBLIC_ENDPOINT)) problems.push('S3_PUBLIC_ENDPOINT must be an http(s) address');
  const bucket = env.S3_BUCKET || 'cutdesk-media';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push('S3_BUCKET must be a valid bucket name (3-63 lowercase letters, digits, dots, hyphens)');
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) problems.push('S3_REGION must look like us-east-1');
  const forcePathStyle = env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : true;
  if (endpoint) {
    if (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_ENDPOINT');
    if (!env.S3_UPLOAD_ROLE_ARN) problems.push('S3_UPLOAD_ROLE_ARN is required with S3_ENDPOINT: browsers upload with temporary credentials from STS AssumeRole (see docs/operations.md)');
    if (env.S3_STS_ENDPOINT && !isUrl(env.S3_STS_ENDPOINT)) problems.push('S3_STS_ENDPOINT must be an http(s) address');
    return {
      mode: 'external',
      endpoint: endpoint.replace(/\/$/, ''),
      publicEndpoint: env.S3_PUBLIC_ENDPOINT ? env.S3_PUBLIC_ENDPOINT.replace(/\/$/, '') : null,
      bucket,
      region,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle,
      uploadRoleArn: env.S3_UPLOAD_ROLE_ARN ?? null,
      stsEndpoint: env.S3_STS_ENDPOINT || null,
    };
  }
  const keys = env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : null;
  if (keys && keys.secretAccessKey.length < 16) problems.push('S3_SECRET_ACCESS_KEY must be at least 16 characters');
  if (problems.length) return { mode: 'embedded', endpoint: null, publicEndpoint: null, bucket, region, accessKeyId: '', secretAccessKey: '', forcePathStyle: true, uploadRoleArn: null, stsEndpoint: null };
  mkdirSync(dataDir, { recursive: true });
  return {
    mode: 'embedded',
    endpoint: null,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT ? env.S3_PUBLIC_ENDPOINT.replace(/\/$/, '') : null,
    bucket,
    region,
    ...(keys ?? embeddedS3KeysFor(dataDir)),
    forcePathStyle: true,
    uploadRoleArn: null,
    stsEndpoint: null,
  };
}

/** Embedded default: a secret generated once and kept in the data directory. */
function jwtSecretFor(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = env.PORT === '0' ? 0 : positiveInt(env, 'PORT', 8080, problems);
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');
  const seed = env.SEED || 'demo';
  if (seed !== 'demo' && seed !== 'none') problems.push('SEED must be "demo" or "none"');
  const demoPassword = env.DEMO_PASSWORD || null;
  if (demoPassword && demoPassword.length < 6) problems.push('DEMO_PASSWORD must be at least 6 characters');
  if (env.JWT_SECRET && env.JWT_SECRET.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  const host = env.HOST || '127.0.0.1';
  const storage = storageConfig(env, dataDir, problems);
  if (problems.length) throw new ConfigError(problems);

  mkdirSync(dataDir, { recursive: true });
  return {
    port,
    host,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Cutdesk <no-reply@cutdesk.test>',
    jwtSecret: env.JWT_SECRET || jwtSecretFor(dataDir),
    seed: seed as 'demo' | 'none',
    demoPassword,
    recaptchaSecret: env.RECAPTCHA_SECRET || null,
    rateLimit: {
      windowMs: positiveInt(env, 'RATE_LIMIT_WINDOW_MS', 15 * 60_000, problems),
      perIp: positiveInt(env, 'RATE_LIMIT_PER_IP', 300, problems),
      perEmail: positiveInt(env, 'RATE_LIMIT_PER_EMAIL', 10, problems),
    },
    webDir: resolve(env.WEB_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    storage,
  };
}
