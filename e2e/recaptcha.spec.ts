import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_SERVER_ENV } from './server-env.ts';

/**
 * Sign-in with reCAPTCHA v3 configured (issue 9), in Chromium against a server of its own:
 * the web app reads the site key, loads Google's script (played here by a stub served in place
 * of https://www.google.com/recaptcha/api.js) and sends a fresh token for the score and for the
 * sign-in, which the server verifies at a local stand-in of Google's siteverify.
 */

const PORT = Number(process.env.E2E_PORT ?? 8181) + 23;
const BASE = `http://localhost:${PORT}`;
const WORK = resolve(`.tmp/e2e-recaptcha-${PORT}`);
const SITE_KEY = '6LcE2eSiteKey-0123456789';

let server: ChildProcess | null = null;
let google: Server | null = null;
const verified: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  google = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('response') ?? '';
      const fresh = !verified.includes(token);
      verified.push(token);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(fresh && token.startsWith('stub-') ? { success: true, score: 0.9 } : { success: false }));
    });
  });
  await new Promise<void>((done) => google!.listen(0, '127.0.0.1', done));
  await rm(WORK, { recursive: true, force: true });
  server = spawn(process.execPath, ['scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: WORK,
      ...E2E_SERVER_ENV,
      RECAPTCHA_SECRET: 'e2e-secret',
      RECAPTCHA_SITE_KEY: SITE_KEY,
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(google.address() as AddressInfo).port}/siteverify`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await expect.poll(async () => (await fetch(`${BASE}/api/v1/health`).catch(() => null))?.ok ?? false, { timeout: 120_000 }).toBe(true);
});

test.afterAll(async () => {
  if (server) {
    const exited = new Promise((done) => server!.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await new Promise((done) => (google ? google.close(done) : done(null)));
  await rm(WORK, { recursive: true, force: true });
});

test('an owner signs in through reCAPTCHA v3: a fresh token for the score and for the sign-in', async ({ page }) => {
  let loadedWith: string | null = null;
  await page.route('https://www.google.com/recaptcha/api.js**', (route) => {
    loadedWith = new URL(route.request().url()).searchParams.get('render');
    return route.fulfill({
      contentType: 'text/javascript',
      body: `let n = 0; window.grecaptcha = { ready: (f) => setTimeout(f, 0), execute: (key, { action }) => Promise.resolve('stub-' + action + '-' + (++n) + '-' + key.length) };`,
    });
  });
  await page.goto(`${BASE}/login/user`);
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  expect(loadedWith).toBe(SITE_KEY);
  expect(verified.filter((token) => token.startsWith('stub-score-'))).toHaveLength(1);
  expect(verified.filter((token) => token.startsWith('stub-login-'))).toHaveLength(1);
});
