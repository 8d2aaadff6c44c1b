import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/log-redaction.ts';
import { changePasswordLink } from '../support/outbox.ts';
import { portOf, startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * Issue 9: no secret in any log line. A real server at debug level goes through registration,
 * sign-in, a recovery mail, a visit of the e-mailed link and the password change; none of the
 * passwords, the session token or the recovery code appears in what it wrote. The outbox file
 * is where a developer finds the link.
 */
describe('log lines', () => {
  let dataDir: string;
  let server: ServerProcess;
  let base: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-logs-'));
    server = startServerProcess(dataDir, { LOG_LEVEL: 'debug' });
    base = `http://127.0.0.1:${await portOf(server)}`;
  }, 120_000);
  afterAll(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = (method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body && { body: JSON.stringify(body) }) });

  it('never carries a password, a token or a recovery code', async () => {
    const email = 'logged@example.com';
    const password = 'first-secret-771';
    const registered = await api('POST', '/register', { email, password, firstName: 'Lee', lastName: 'Log', phone: '5551234' });
    expect(registered.status).toBe(201);
    const login = await api('POST', '/login', { email, password });
    const { token } = (await login.json()) as { token: string };
    expect((await api('GET', '/me', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await api('PUT', '/password-recover', { email })).status).toBe(204);
    const link = await changePasswordLink(dataDir, email);
    const code = link.searchParams.get('code')!;
    await fetch(`${base}${link.pathname}${link.search}`); // the browser opening the link
    await fetch(`${base}/api/v1/score?token=secret-bot-token-123`);
    const newPassword = 'second-secret-882';
    expect((await api('PUT', '/password-recover-complete', { email, recoveryCode: code, newPassword })).status).toBe(200);
    await new Promise((done) => setTimeout(done, 300)); // let the last lines reach the pipe

    const log = server.output();
    expect(log).toContain('mail written to outbox');
    expect(log).toContain('/change-password?code=[redacted]');
    for (const secret of [password, newPassword, token, code, encodeURIComponent(code), 'secret-bot-token-123']) expect(log).not.toContain(secret);
  }, 60_000);

  it('redacts secret query values and media tokens, keeping the rest', () => {
    expect(redactUrl('/change-password?code=abc&email=a%40b.co')).toBe('/change-password?code=[redacted]&email=a%40b.co');
    expect(redactUrl('/s3/b/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=ff&x-id=GetObject')).toBe(
      '/s3/b/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&x-id=GetObject',
    );
    expect(redactUrl('/api/v1/media/eyJhbGciOi.x.y/preview.mp4')).toBe('/api/v1/media/[redacted]/preview.mp4');
    // A raw zip's link (issue 34): ten minutes of every original of a project.
    expect(redactUrl('/api/v1/zips/12.3.4.mabc12.AbCdEfGhIjKlMnOpQrStUvWxYz012345/project-12_raw_assets.zip')).toBe(
      '/api/v1/zips/[redacted]/project-12_raw_assets.zip',
    );
    expect(redactUrl('/api/v1/projects?sort=name')).toBe('/api/v1/projects?sort=name');
    // A guest review link's token opens a version of a project: neither the API's nor the page's path keeps it, nor a pass.
    expect(redactUrl('/api/v1/share/12.AbCdEfGhIjKlMnOpQrStUvWxYz012345/comments')).toBe('/api/v1/share/[redacted]/comments');
    expect(redactUrl('/api/v1/share/12.AbCdEfGhIjKlMnOpQrStUvWxYz012345/events?pass=12.abc.sig')).toBe('/api/v1/share/[redacted]/events?pass=[redacted]');
    expect(redactUrl('/review/12.AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe('/review/[redacted]');
    // A coupon code is a voucher: single-use and 100 % codes are worth money to a log reader.
    expect(redactUrl('/api/v1/payment-plans/coupons/LAUNCH100')).toBe('/api/v1/payment-plans/coupons/[redacted]');
    expect(redactUrl('/api/v1/admin/coupons/WELCOME10?x=1')).toBe('/api/v1/admin/coupons/[redacted]?x=1');
  });
});
