import { MESSAGES } from '../../src/domain/messages.ts';
import type { AppContext } from '../context.ts';
import { HttpError, forbidden } from '../http-error.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** A 429 that tells the client when to try again (the error handler sends Retry-After). */
export class TooManyRequests extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, MESSAGES.tooManyRequests);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/**
 * Route config for @fastify/rate-limit: at most RATE_LIMIT_PER_IP requests per window from one
 * address to this route, counted in the database for every instance. This is the flood guard of
 * the routes anyone may call; guessing is slowed down per account by `guardFailures`.
 */
export function perIpRouteLimit(config: { rateLimit: { windowMs: number; perIp: number } }) {
  return { rateLimit: { max: config.rateLimit.perIp, timeWindow: config.rateLimit.windowMs } };
}

const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * The source a per-address count is kept for: an IPv4 address, or the /64 network of an IPv6
 * one (one subscriber gets a whole /64 and could otherwise take a fresh address per guess), as
 * @fastify/rate-limit does for the per-route limits.
 */
export function sourceOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * The account-wide guard starts after this many times the per-address allowance of failures:
 * the failures of several addresses, not one person mistyping (who is limited per address).
 */
export const ACCOUNT_WIDE_FACTOR = 3;

/** What a guarded attempt reports once its outcome is known. */
export interface FailureGuard {
  /** The account had many failures from everywhere: this attempt must pass the bot check. */
  botCheckRequired: boolean;
  /** The attempt succeeded: this source's run of failures is over. */
  succeeded(): Promise<void>;
  /** The attempt failed: it counts against the account everywhere (see `guardFailures`). */
  failed(): Promise<void>;
}

/**
 * Slows down guessing of one account's secret (a password, a recovery code), counting failures
 * only, in two scopes:
 * - per (account, source address): past RATE_LIMIT_PER_EMAIL failures in the window, 429. This
 *   hit is counted before the attempt (atomically, so parallel guesses cannot slip past) and
 *   cleared when the attempt succeeds, so signing in never counts against the account.
 * - per account, from every address: past ACCOUNT_WIDE_FACTOR times as many failures, the
 *   attempt must carry a passing bot-check token (`botCheckRequired`, for the caller's one call
 *   of `requireHuman`: a reCAPTCHA token can be verified only once). A third party guessing
 *   from elsewhere therefore cannot lock the owner out (their own address has its own count,
 *   and the web app always sends a token), but a script spreading guesses over many addresses
 *   has to pass the bot check on each. Only for actions whose body can carry a token
 *   (`accountWide`): elsewhere it would lock the owner out.
 */
export async function guardFailures(
  { limiter, config }: Pick<AppContext, 'limiter' | 'config'>,
  ip: string,
  action: string,
  email: string,
  options: { accountWide: boolean },
): Promise<FailureGuard> {
  const account = normalEmail(email);
  const pairKey = `${action}:pair:${account}|${sourceOf(ip)}`;
  const accountKey = `${action}:account:${account}`;
  const pair = await limiter.hit(pairKey);
  if (pair.count > config.rateLimit.perEmail) throw new TooManyRequests(pair.ttlMs / 1000);
  const everywhere = options.accountWide ? await limiter.read(accountKey) : { count: 0 };
  return {
    botCheckRequired: everywhere.count >= config.rateLimit.perEmail * ACCOUNT_WIDE_FACTOR,
    succeeded: () => limiter.clear(pairKey),
    failed: async () => {
      if (options.accountWide) await limiter.hit(accountKey);
    },
  };
}

/**
 * Counts one use of an action that costs something for the account (a recovery mail) from this
 * address; 429 past RATE_LIMIT_PER_EMAIL in the window.
 */
export async function limitPerAccountAndIp(
  { limiter, config }: Pick<AppContext, 'limiter' | 'config'>,
  ip: string,
  action: string,
  email: string,
): Promise<void> {
  const count = await limiter.hit(`${action}:pair:${normalEmail(email)}|${sourceOf(ip)}`);
  if (count.count > config.rateLimit.perEmail) throw new TooManyRequests(count.ttlMs / 1000);
}

/**
 * Whether the account may receive one more message of `action` in this window, whoever asked:
 * the whole service sends at most RATE_LIMIT_PER_EMAIL of them, so nobody can flood a mailbox
 * by spreading requests over many addresses.
 */
export async function accountBudgetAllows(limiter: RateLimiter, action: string, email: string, perEmail: number): Promise<boolean> {
  const count = await limiter.hit(`${action}:budget:${normalEmail(email)}`);
  return count.count <= perEmail;
}

/**
 * A bot-check token must score above 0. It is required when `required` is true, or always
 * when a reCAPTCHA secret is configured (production: the web app's flows carry one); without
 * a secret a client that sends none (tests, scripts) is let through unless `required`.
 */
export async function requireHuman({ botCheck, config }: Pick<AppContext, 'botCheck' | 'config'>, token: string | undefined, required = false): Promise<void> {
  if (token === undefined || token === '') {
    if (required || config.recaptchaSecret) throw forbidden(MESSAGES.botCheckFailed);
    return;
  }
  const score = await botCheck.score(token);
  if (!(score > 0)) throw forbidden(MESSAGES.botCheckFailed);
}
