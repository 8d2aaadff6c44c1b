import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { readBillingConfig, type BillingConfig } from './billing/config.ts';

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
  /** reCAPTCHA v3 site key the web app runs with; set together with the secret. */
  recaptchaSiteKey: string | null;
  /** Where tokens are verified (Google's siteverify; a local stand-in in tests). */
  recaptchaVerifyUrl: string;
  rateLimit: { windowMs: number; perIp: number; perEmail: number };
  /** Directory holding the built PWA. */
  webDir: string;
  logLevel: string;
  /** `json` (one JSON object a line, for collectors) or `pretty` (readable lines for a terminal). */
  logFormat: 'json' | 'pretty';
  /** Bearer token that opens GET /metrics from other addresses than loopback; null: loopback only. */
  metricsToken: string | null;
  /** Object storage for every object the product keeps (see StorageConfig). */
  storage: StorageConfig;
  /**
   * Which proxies in front of the server are believed about the client's address and the host
   * (X-Forwarded-For/-Host/-Proto): false (none, the default), a hop count, or addresses/CIDRs.
   */
  trustProxy: TrustProxy;
  /** Load shedding: past this mean event-loop delay (ms) new app requests answer 503. */
  maxEventLoopDelayMs: number;
  /**
   * The cadence of the minute jobs (review windows, review e-mails) and the delay of the first
   * upload sweep and billing renewal after start (server/jobs.ts). A minute; end-to-end tests of
   * the jobs across instances shorten it so they wait on what the jobs did, not on the clock.
   */
  jobPeriodMs: number;
  /** Payments: the embedded test gateway, or Stripe with STRIPE_SECRET_KEY (server/billing/config.ts). */
  billing: BillingConfig;
}

export type TrustProxy = false | number | string[];

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
  /**
   * How browsers get upload credentials: `sts` (AssumeRole, any S3 service) or `database` (the
   * store at `endpoint` is another Cutdesk instance's embedded store on the same database, which
   * checks the credentials this instance records there: several instances on one PostgreSQL
   * sharing one embedded store). Embedded mode issues them the `database` way too.
   */
  uploadCredentials: 'sts' | 'database';
  /**
   * Embedded mode: the store's own listener (S3_PORT), besides /s3 on the app's port. Browsers
   * upload there, so the page's own requests (the live-updates stream) do not take one of the
   * six HTTP/1.1 connections their parts need; S3 clients that cannot take an endpoint with a
   * path (s3cmd) use it as a root endpoint. `explicit`: set by S3_PORT (a busy port stops the
   * start) rather than the default PORT + 1 (a busy port is logged, and /s3 serves alone).
   * Null: S3_PORT=off, or an external store.
   */
  storeListener?: { port: number; explicit: boolean } | null;
  /**
   * Embedded mode: origins besides the app's own whose pages may call the store from a browser
   * (S3_CORS_ORIGINS, a comma list of `scheme://host[:port]`). The app's own are always allowed:
   * PUBLIC_URL's origin and the page origin the request came from (server/storage/cors-origins.ts).
   */
  corsOrigins?: string[];
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
  writeSecretFile(file, JSON.stringify(keys));
  return keys;
}

/** S3_PORT: a port, 0 for any free one, `off`; by default the app's port + 1 (any free one when PORT=0). */
function storeListenerOf(env: Env, appPort: number, problems: string[]): StorageConfig['storeListener'] {
  const raw = env.S3_PORT;
  if (raw === 'off') return null;
  if (raw === undefined || raw === '') return { port: appPort === 0 ? 0 : appPort + 1, explicit: false };
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) problems.push(`S3_PORT must be a port number, 0 (any free port) or "off" (got "${raw}")`);
  else if (port !== 0 && port === appPort) problems.push('S3_PORT must differ from PORT: the embedded store gets a listener of its own');
  return { port, explicit: true };
}

/**
 * S3_CORS_ORIGINS: `scheme://host[:port]` entries, comma-separated, as browsers write an Origin
 * (lowercase host, no default port). `*` and paths are refused: the store never answers CORS for
 * any origin (issue 36).
 */
function corsOriginsOf(env: Env, problems: string[]): string[] {
  const entries = (env.S3_CORS_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const origins: string[] = [];
  for (const entry of entries) {
    let url: URL | null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      !/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(entry)
    ) {
      problems.push(
        `S3_CORS_ORIGINS must be a comma list of origins such as https://app.example.com or http://localhost:5173 (no path, no *); not understood: ${entry}`,
      );
    } else if (!origins.includes(url.origin)) {
      origins.push(url.origin);
    }
  }
  return origins;
}

function storageConfig(env: Env, dataDir: string, problems: string[], appPort: number): StorageConfig {
  const endpoint = env.S3_ENDPOINT || null;
  const isUrl = (value: string) => /^https?:\/\/[^/]/.test(value);
  if (endpoint && !isUrl(endpoint)) problems.push('S3_ENDPOINT must be an http(s) address');
  if (env.S3_PUBLIC_ENDPOINT && !isUrl(env.S3_PUBLIC_ENDPOINT)) problems.push('S3_PUBLIC_ENDPOINT must be an http(s) address');
  const bucket = env.S3_BUCKET || 'cutdesk-media';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    problems.push('S3_BUCKET must be a valid bucket name (3-63 lowercase letters, digits, dots, hyphens)');
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) problems.push('S3_REGION must look like us-east-1');
  const forcePathStyle = env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : true;
  if (endpoint) {
    // Without static keys the SDK's default credential chain answers (an instance or task role,
    // web identity, a profile): the way AWS advises to run on its machines. Half a pair is a mistake.
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the default AWS credential chain');
    const uploadCredentials = env.S3_UPLOAD_CREDENTIALS || 'sts';
    if (uploadCredentials !== 'sts' && uploadCredentials !== 'database') problems.push('S3_UPLOAD_CREDENTIALS must be "sts" or "database"');
    if (uploadCredentials === 'database' && !(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY && env.DATABASE_URL)) {
      problems.push(
        'S3_UPLOAD_CREDENTIALS=database needs DATABASE_URL and the embedded store\'s own key pair (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY from its s3-credentials.json): see docs/operations.md, "Several instances"',
      );
    }
    if (uploadCredentials === 'sts' && !env.S3_UPLOAD_ROLE_ARN)
      problems.push('S3_UPLOAD_ROLE_ARN is required with S3_ENDPOINT: browsers upload with temporary credentials from STS AssumeRole (see docs/operations.md)');
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
      uploadCredentials: uploadCredentials === 'database' ? 'database' : 'sts',
    };
  }
  const keys = env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : null;
  if (keys && keys.secretAccessKey.length < 16) problems.push('S3_SECRET_ACCESS_KEY must be at least 16 characters');
  if (problems.length)
    return {
      mode: 'embedded',
      endpoint: null,
      publicEndpoint: null,
      bucket,
      region,
      accessKeyId: '',
      secretAccessKey: '',
      forcePathStyle: true,
      uploadRoleArn: null,
      stsEndpoint: null,
      uploadCredentials: 'database',
    };
  const storeListener = storeListenerOf(env, appPort, problems);
  const corsOrigins = corsOriginsOf(env, problems);
  makeDataDir(dataDir);
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
    uploadCredentials: 'database',
    storeListener,
    corsOrigins,
  };
}

/** `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or `v6/n`. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: empty (trust nobody: the socket's address is the client's, the Host header is
 * the host), a hop count (`1`: one proxy in front, e.g. a load balancer) or a comma list of the
 * proxies' addresses/CIDRs. `true` is refused: it would let any client choose its own address
 * (escaping per-address limits) and the host put into links.
 */
function trustProxyOf(env: Env, problems: string[]): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
  if (invalid.length) {
    problems.push(
      `TRUST_PROXY must be a hop count (e.g. 1) or a comma list of proxy addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1); not understood: ${invalid.join(', ')}`,
    );
    return false;
  }
  return entries;
}

/** Embedded default: a secret generated once and kept in the data directory. */
function jwtSecretFor(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeSecretFile(file, secret);
  return secret;
}

/**
 * A secret, readable by its owner only, written whole or not at all (issue 32): beside its name,
 * then renamed. A full disk used to leave an empty `jwt-secret` that the next start read as the secret.
 */
function writeSecretFile(file: string, content: string): void {
  const draft = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(draft, content, { mode: 0o600 });
    renameSync(draft, file);
  } catch (error) {
    rmSync(draft, { force: true });
    throw error;
  }
}

/** DATA_DIR, when this process makes it: readable by its owner only (issue 32). */
function makeDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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
  const storage = storageConfig(env, dataDir, problems, port);
  const trustProxy = trustProxyOf(env, problems);
  // Read before the check below, so a bad limit is reported with the rest.
  const rateLimit = {
    windowMs: positiveInt(env, 'RATE_LIMIT_WINDOW_MS', 15 * 60_000, problems),
    perIp: positiveInt(env, 'RATE_LIMIT_PER_IP', 300, problems),
    perEmail: positiveInt(env, 'RATE_LIMIT_PER_EMAIL', 10, problems),
  };
  const maxEventLoopDelayMs = positiveInt(env, 'MAX_EVENT_LOOP_DELAY_MS', 1_000, problems);
  const jobPeriodMs = positiveInt(env, 'JOB_PERIOD_MS', 60_000, problems);
  const billing = readBillingConfig(env, problems);
  // With a secret the server requires real tokens: the web app must be able to get them.
  if (Boolean(env.RECAPTCHA_SECRET) !== Boolean(env.RECAPTCHA_SITE_KEY))
    problems.push('RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY go together: set both (reCAPTCHA v3) or neither (embedded bot check)');
  if (env.RECAPTCHA_SITE_KEY && !/^[\w-]{10,100}$/.test(env.RECAPTCHA_SITE_KEY))
    problems.push('RECAPTCHA_SITE_KEY must be a reCAPTCHA v3 site key (letters, digits, - and _)');
  if (env.RECAPTCHA_VERIFY_URL && !/^https?:\/\/[^/]/.test(env.RECAPTCHA_VERIFY_URL)) problems.push('RECAPTCHA_VERIFY_URL must be an http(s) address');
  const logFormat = env.LOG_FORMAT || 'json';
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push('LOG_FORMAT must be "json" or "pretty"');
  // Named, never shown: the message must not put a secret into a terminal or a log.
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken && !/^[\x21-\x7e]{24,}$/.test(metricsToken)) problems.push('METRICS_TOKEN must be at least 24 printable characters without spaces');
  if (problems.length) throw new ConfigError(problems);

  makeDataDir(dataDir);
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
    recaptchaSiteKey: env.RECAPTCHA_SITE_KEY || null,
    recaptchaVerifyUrl: env.RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
    rateLimit,
    webDir: resolve(env.WEB_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat as 'json' | 'pretty',
    metricsToken,
    storage,
    trustProxy,
    maxEventLoopDelayMs,
    jobPeriodMs,
    billing,
  };
}
