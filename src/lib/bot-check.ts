import * as operations from '@/domain/contract/auth.ts';
import { call } from './api-client.ts';
import { getClientConfig } from './client-config.ts';

/**
 * The bot check (C§2). With reCAPTCHA v3 configured on the server (`GET client-config` names
 * the site key) every check gets a fresh token from Google's script, loaded only then: a token
 * is good for one verification, so the score call and the sign-in each ask for their own.
 * Without a site key the embedded scorer accepts the app's own token.
 */
const EMBEDDED_TOKEN = 'cutdesk-web';
const SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';

export type BotCheckAction = 'score' | 'login' | 'register';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

let siteKey: Promise<string | null> | null = null;
let grecaptcha: Promise<Grecaptcha> | null = null;

function configuredSiteKey(): Promise<string | null> {
  siteKey ??= getClientConfig().then(
    (config) => config.recaptchaSiteKey,
    (error: unknown) => {
      siteKey = null; // asked again on the next check
      throw error;
    },
  );
  return siteKey;
}

function loadRecaptcha(key: string): Promise<Grecaptcha> {
  grecaptcha ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${SCRIPT_URL}?render=${encodeURIComponent(key)}`;
    script.async = true;
    script.onload = () => {
      const loaded = (window as unknown as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (!loaded) return reject(new Error('reCAPTCHA did not load'));
      loaded.ready(() => resolve(loaded));
    };
    script.onerror = () => {
      grecaptcha = null;
      script.remove();
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.append(script);
  });
  return grecaptcha;
}

/** A token for one verification of `action`. */
export async function botCheckToken(action: BotCheckAction): Promise<string> {
  const key = await configuredSiteKey();
  if (!key) return EMBEDDED_TOKEN;
  const recaptcha = await loadRecaptcha(key);
  return recaptcha.execute(key, { action });
}

/** C§2: a score must be requested and be greater than 0 before signing in or registering. */
export async function passesBotCheck(): Promise<boolean> {
  const { score } = await call(operations.score, { query: { token: await botCheckToken('score') } });
  return score > 0;
}
