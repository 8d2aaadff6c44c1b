import type { ProviderName } from './payment-provider.ts';

/** The payment gateway, from the environment (README "Configuration"); part of the loaded Config. */
export interface BillingConfig {
  provider: ProviderName;
  /** Stripe.js's key for the browser (`pk_test_…`/`pk_live_…`); null with the embedded gateway. */
  publishableKey: string | null;
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
 * STRIPE_SECRET_KEY selects Stripe, and then STRIPE_PUBLISHABLE_KEY is required (the browser
 * tokenizes cards with Stripe.js); without it the embedded test gateway answers.
 * STRIPE_API_HOST/PORT/PROTOCOL point the SDK elsewhere (a local stand-in in tests).
 * Problems are added to `problems` without the values, so no key lands in a log; loadConfig
 * (server/config.ts) reports them with the rest.
 */
export function readBillingConfig(env: Record<string, string | undefined>, problems: string[]): BillingConfig {
  const secretKey = env.STRIPE_SECRET_KEY || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY || null;
  if (!secretKey) {
    if (webhookSecret || env.STRIPE_API_HOST || publishableKey)
      problems.push('STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY and STRIPE_API_HOST need STRIPE_SECRET_KEY');
    return { provider: 'embedded', publishableKey: null, stripe: null };
  }
  const secretMode = /^(?:sk|rk)_(test|live)_\w+$/.exec(secretKey)?.[1];
  if (!secretMode) problems.push('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…)');
  const publishableMode = publishableKey ? /^pk_(test|live)_\w+$/.exec(publishableKey)?.[1] : undefined;
  if (!publishableKey) problems.push('STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY (the browser collects cards with Stripe.js)');
  else if (!publishableMode) problems.push('STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_… or pk_live_…)');
  else if (secretMode && publishableMode !== secretMode) problems.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys');
  if (webhookSecret && !/^whsec_\w+$/.test(webhookSecret)) problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const portText = env.STRIPE_API_PORT;
  const port = portText ? Number(portText) : null;
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) problems.push('STRIPE_API_PORT must be a port number');
  const protocol = env.STRIPE_API_PROTOCOL || null;
  if (protocol !== null && protocol !== 'http' && protocol !== 'https') problems.push('STRIPE_API_PROTOCOL must be http or https');
  const host = env.STRIPE_API_HOST || null;
  if (host !== null && !/^[\w.-]+$/.test(host)) problems.push('STRIPE_API_HOST must be a host name or address, without scheme or port');
  return { provider: 'stripe', publishableKey, stripe: { secretKey, webhookSecret, host, port, protocol: protocol as 'http' | 'https' | null } };
}
