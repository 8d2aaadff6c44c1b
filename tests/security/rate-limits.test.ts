import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../src/domain/messages.ts';
import { buildApp } from '../../server/app.ts';
import { HttpError } from '../../server/http-error.ts';
import { sourceOf } from '../../server/services/abuse-guard.ts';
import { recaptchaBotCheck } from '../../server/services/bot-check.ts';
import { readOutbox } from '../support/outbox.ts';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, rate limits: counted in the database (every instance together), failures only per
 * (account, address), a flood guard per address and route, Retry-After and one plain message,
 * and nobody else can lock the owner out of their account.
 */

const OWNER = 'owner@demo.cutdesk.test';
const WEB_CODE = 'cutdesk-web'; // the token the web app's flows send (src/lib/bot-check.ts)

describe.each(DATABASES)('rate limits on $name', ({ url }) => {
  let server: TestServer;
  beforeAll(async () => {
    // TRUST_PROXY: the test plays clients at many addresses through X-Forwarded-For.
    server = await startTestServer(url, { env: { RATE_LIMIT_PER_EMAIL: '3', RATE_LIMIT_PER_IP: '40', TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => server?.close());

  const login = (app: FastifyInstance, from: string, email: string, password: string, code?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'x-forwarded-for': from },
      payload: { email, password, ...(code !== undefined && { code }) },
    });

  it('answers 429 with Retry-After and the plain message past the failures of one address', async () => {
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await login(server.app, '198.51.100.1', 'user@demo.cutdesk.test', 'wrong-password')).statusCode);
    expect(codes).toEqual([401, 401, 401]);
    const limited = await login(server.app, '198.51.100.1', 'user@demo.cutdesk.test', DEMO_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: MESSAGES.tooManyRequests });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another address is not concerned.
    expect((await login(server.app, '198.51.100.2', 'user@demo.cutdesk.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('counts failures only: signing in does not use up the account', async () => {
    const from = '198.51.100.10';
    const codes = [];
    for (let round = 0; round < 3; round++) {
      codes.push((await login(server.app, from, 'priya@demo.cutdesk.test', 'wrong-password')).statusCode);
      codes.push((await login(server.app, from, 'priya@demo.cutdesk.test', 'wrong-password')).statusCode);
      codes.push((await login(server.app, from, 'priya@demo.cutdesk.test', DEMO_PASSWORD)).statusCode);
    }
    expect(codes).toEqual([401, 401, 200, 401, 401, 200, 401, 401, 200]);
  });

  it('does not let a third party lock the owner out; spread guessing must pass the bot check', async () => {
    // Someone guesses the owner's password from several addresses until each is limited.
    for (const from of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      for (let i = 0; i < 4; i++) await login(server.app, from, OWNER, `guess-${from}-${i}`, WEB_CODE);
    }
    // A script without a bot-check token is now stopped for this account, from any address…
    const script = await login(server.app, '192.0.2.4', OWNER, 'another-guess');
    expect(script.statusCode).toBe(403);
    expect(script.json().message).toBe(MESSAGES.botCheckFailed);
    // …while the owner, signing in from their own address through the web app, gets in.
    expect((await login(server.app, '203.0.113.7', OWNER, DEMO_PASSWORD, WEB_CODE)).statusCode).toBe(200);
    // A token the bot check scores 0 does not pass.
    expect((await login(server.app, '203.0.113.7', OWNER, DEMO_PASSWORD, 'bot')).statusCode).toBe(403);
  });

  it('counts for every instance together (the store is the database)', async () => {
    // A second server process on the same database: the same counters.
    const second = await buildApp({ config: server.config, db: server.db });
    try {
      const from = '198.51.100.20';
      const codes = [];
      codes.push((await login(server.app, from, 'admin@demo.cutdesk.test', 'wrong')).statusCode);
      codes.push((await login(second, from, 'admin@demo.cutdesk.test', 'wrong')).statusCode);
      codes.push((await login(server.app, from, 'admin@demo.cutdesk.test', 'wrong')).statusCode);
      codes.push((await login(second, from, 'admin@demo.cutdesk.test', 'wrong')).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await second.close();
    }
  });

  it('limits requests per address and route, with Retry-After', async () => {
    const from = '198.51.100.30';
    const score = () => server.app.inject({ method: 'GET', url: '/api/v1/score?token=x', headers: { 'x-forwarded-for': from } });
    const codes = [];
    for (let i = 0; i < 41; i++) codes.push((await score()).statusCode);
    expect(codes.slice(0, 40).every((code) => code === 200)).toBe(true);
    const limited = await score();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: MESSAGES.tooManyRequests });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another route keeps its own count.
    expect((await login(server.app, from, 'editor@demo.cutdesk.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('limits recovery mails per address and per account, answering the same either way', async () => {
    const recover = (from: string) =>
      server.app.inject({
        method: 'PUT',
        url: '/api/v1/password-recover',
        headers: { 'x-forwarded-for': from },
        payload: { email: 'nina@northwind.demo.cutdesk.test' },
      });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await recover('198.51.100.40')).statusCode);
    expect(codes).toEqual([204, 204, 204, 429]);
    // From elsewhere the request is answered, but the mailbox gets no more than 3 mails.
    expect((await recover('198.51.100.41')).statusCode).toBe(204);
    await server.app.background.drain();
    const mails = (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes('nina@northwind.demo.cutdesk.test'));
    expect(mails).toHaveLength(3);
  });

  it('limits wrong recovery codes per address', async () => {
    const complete = () =>
      server.app.inject({
        method: 'PUT',
        url: '/api/v1/password-recover-complete',
        headers: { 'x-forwarded-for': '198.51.100.50' },
        payload: { email: 'hal@harborlights.demo.cutdesk.test', recoveryCode: 'guess', newPassword: 'whatever-1' },
      });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await complete()).statusCode);
    expect(codes).toEqual([400, 400, 400, 429]);
  });
});

describe('bot check with a reCAPTCHA secret', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null, { env: { RECAPTCHA_SECRET: 'test-secret', RECAPTCHA_SITE_KEY: 'test-site-key-0123' } });
  });
  afterAll(async () => server?.close());

  it('requires the code on sign-in and registration', async () => {
    const login = await server.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: OWNER, password: DEMO_PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(MESSAGES.botCheckFailed);
    const register = await server.app.inject({
      method: 'POST',
      url: '/api/v1/register',
      payload: { email: 'new-owner@example.com', password: 'secret123', firstName: 'Nora', lastName: 'New', phone: '5551234' },
    });
    expect(register.statusCode).toBe(403);
  });

  it('answers 503, not 500, when the verification service cannot be reached', async () => {
    const check = recaptchaBotCheck('secret', 'http://127.0.0.1:9/siteverify');
    const failure = await check.score('token').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).statusCode).toBe(503);
  });
});

describe('the source of a per-address count', () => {
  it('is the IPv4 address, or the /64 network of an IPv6 address', () => {
    expect(sourceOf('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(sourceOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:db8:1:2::5')).toBe(sourceOf('2001:db8:1:2:ffff::9'));
    expect(sourceOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceOf('::1')).toBe('0:0:0:0::/64');
    expect(sourceOf('2001:db8:1:3::5')).not.toBe(sourceOf('2001:db8:1:2::5'));
  });
});
