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
  };
}
