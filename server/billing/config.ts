import { ConfigError } from '../config.ts';
import type { ProviderName } from './payment-provider.ts';

/** The payment gateway, from the environment (README "Configuration"). */
export interface BillingConfig {
  provider: ProviderName;
  stripe: {
    secretKey: string;
    /** Without it the webhook route answers 404: events cannot be trusted unsigned. */
    webhookSecret: string | null;
    host: string | null;
    port: number | null;
    protocol: 'http' | 'https' | null;
  } | null;
}

/**
 * STRIPE_SECRET_KEY selects Stripe; without it the embedded test gateway answers.
 * STRIPE_API_HOST/PORT/PROTOCOL point the SDK elsewhere (a local stand-in in tests).
 * Problems are listed without the values, so no key lands in a log.
 */
export function loadBillingConfig(env: Record<string, string | undefined>): BillingConfig {
  const problems: string[] = [];
  const secretKey = env.STRIPE_SECRET_KEY || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  if (!secretKey) {
    if (webhookSecret || env.STRIPE_API_HOST) problems.push('STRIPE_WEBHOOK_SECRET and STRIPE_API_HOST need STRIPE_SECRET_KEY');
    if (problems.length) throw new ConfigError(problems);
    return { provider: 'embedded', stripe: null };
  }
  if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) problems.push('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…)');
  if (webhookSecret && !/^whsec_\w+$/.test(webhookSecret)) problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const portText = env.STRIPE_API_PORT;
  const port = portText ? Number(portText) : null;
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) problems.push('STRIPE_API_PORT must be a port number');
  const protocol = env.STRIPE_API_PROTOCOL || null;
  if (protocol !== null && protocol !== 'http' && protocol !== 'https') problems.push('STRIPE_API_PROTOCOL must be http or https');
  const host = env.STRIPE_API_HOST || null;
  if (host !== null && !/^[\w.-]+$/.test(host)) problems.push('STRIPE_API_HOST must be a host name or address, without scheme or port');
  if (problems.length) throw new ConfigError(problems);
  return { provider: 'stripe', stripe: { secretKey, webhookSecret, host, port, protocol: protocol as 'http' | 'https' | null } };
}
