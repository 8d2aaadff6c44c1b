import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/domain/messages.ts';
import { loadConfig } from '../../server/config.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9: with reCAPTCHA configured the bot-check code is required, so the web app must be
 * able to get real tokens: the server names its site key (`GET client-config`), lets Google's
 * script into the CSP, and verifies each token once with its secret. Google is played by a
 * local stand-in that records what the server sends to siteverify.
 */

const SITE_KEY = '6LcTestSiteKey-0123456789';
const SECRET = 'test-recaptcha-secret';

describe('reCAPTCHA v3 end to end on the server', () => {
  let server: TestServer;
  let google: Server;
  const verified: { secret: string | null; response: string | null }[] = [];

  beforeAll(async () => {
    google = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        verified.push({ secret: form.get('secret'), response: form.get('response') });
        // Like Google: a token is good once; "bot-…" tokens score 0.
        const token = form.get('response') ?? '';
        const seen = verified.filter((v) => v.response === token).length > 1;
        const ok = !seen && token.startsWith('human-');
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify(
            ok ? { success: true, score: 0.9, action: 'login' } : { success: false, 'error-codes': [seen ? 'timeout-or-duplicate' : 'invalid-input-response'] },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(google.address() as AddressInfo).port}/recaptcha/api/siteverify`;
    server = await startTestServer(null, { env: { RECAPTCHA_SECRET: SECRET, RECAPTCHA_SITE_KEY: SITE_KEY, RECAPTCHA_VERIFY_URL: verifyUrl } });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => google?.close(resolve));
  });

  const login = (code?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'owner@demo.cutdesk.test', password: DEMO_PASSWORD, ...(code !== undefined && { code }) },
    });

  it("names the site key to the web app and lets only Google's reCAPTCHA into the CSP", async () => {
    const config = await server.app.inject({ method: 'GET', url: '/api/v1/client-config' });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toEqual({ recaptchaSiteKey: SITE_KEY, payments: { provider: 'embedded', publishableKey: null } });
    const csp = String(config.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/www\.google\.com\/recaptcha\/ https:\/\/www\.gstatic\.com\/recaptcha\//);
    expect(csp).toMatch(/frame-src 'self' https:\/\/www\.google\.com\/recaptcha\/ https:\/\/recaptcha\.google\.com\/recaptcha\//);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*\*/);
  });

  it('signs in with a fresh token, verified once with the secret; a missing, replayed or bot token is refused', async () => {
    expect((await login()).statusCode).toBe(403);
    const signedIn = await login('human-token-1');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(verified.at(-1)).toEqual({ secret: SECRET, response: 'human-token-1' });
    const replayed = await login('human-token-1');
    expect(replayed.statusCode).toBe(403);
    expect(replayed.json().message).toBe(MESSAGES.botCheckFailed);
    expect((await login('bot-token')).statusCode).toBe(403);
    // The score call (C§2) verifies its own token.
    const score = await server.app.inject({ method: 'GET', url: '/api/v1/score?token=human-token-2' });
    expect(score.json()).toEqual({ score: 0.9 });
  });

  it('without reCAPTCHA the web app is told to use the embedded check, and nothing of Google may load', async () => {
    const plain = await startTestServer(null, { seed: false });
    try {
      const config = await plain.app.inject({ method: 'GET', url: '/api/v1/client-config' });
      expect(config.json()).toEqual({ recaptchaSiteKey: null, payments: { provider: 'embedded', publishableKey: null } });
      expect(String(config.headers['content-security-policy'])).not.toContain('google');
    } finally {
      await plain.close();
    }
  });

  it('refuses a secret without a site key (the web app could never pass), and a bad verify address', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/cutdesk-config-check', RECAPTCHA_SECRET: SECRET })).toThrow(
      /RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY go together/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/cutdesk-config-check', RECAPTCHA_SECRET: SECRET, RECAPTCHA_SITE_KEY: SITE_KEY, RECAPTCHA_VERIFY_URL: 'ftp://x' }),
    ).toThrow(/RECAPTCHA_VERIFY_URL/);
  });
});
