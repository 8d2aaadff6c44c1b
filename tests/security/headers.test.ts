import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/plugins/security-headers.ts';
import { loadConfig } from '../../server/config.ts';
import { signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, the app's edges: security headers on the app (pages and API) and not on /s3, and
 * forwarded headers believed only from the proxies TRUST_PROXY names.
 */

const WEB_DIR = resolve('dist');
const BRIEF = { name: 'Header test', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };

function directives(header: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null, { storage: true, env: { WEB_DIR } });
  });
  afterAll(async () => server?.close());

  it.each(['/', '/user/projects', '/api/v1/health', '/api/v1/no-such-thing'])('sends the CSP and the other headers on %s', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    const csp = directives(response.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    // helmet's other defaults come along.
    expect(response.headers['x-permitted-cross-domain-policies']).toBe('none');
    expect(response.headers['x-xss-protection']).toBe('0');
    // Served over http: no HSTS, nothing to upgrade.
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it('keeps authenticated answers out of every cache (no-store), refusals and link reads included; public ones keep theirs', async () => {
    const admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    const organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    const read = async (url: string, headers: Record<string, string> = {}) => {
      const response = await server.app.inject({ method: 'GET', url, headers });
      return `${response.statusCode} ${response.headers['cache-control'] ?? '-'}`;
    };
    // The staff board, the users, the organizations, the caller; the customer's board.
    for (const url of ['/api/v1/me', '/api/v1/organizations', '/api/v1/users', '/api/v1/projects'])
      expect(`${url} ${await read(url, admin)}`).toBe(`${url} 200 no-store`);
    expect(await read(`/api/v1/organizations/${organizationId}/projects`, owner)).toBe('200 no-store');
    expect(await read(`/api/v1/organizations/${organizationId}`, owner)).toBe('200 no-store');
    expect(await read('/api/v1/me')).toBe('401 no-store');
    expect(await read('/api/v1/admin/coupons', owner)).toBe('403 no-store');
    // A share link's guest read: its token is the caller's key.
    expect(await read('/api/v1/share/not-a-real-link-token/comments')).toMatch(/^4\d\d no-store$/);
    // Public answers as they were.
    expect(await read('/api/v1/health')).toBe('200 no-store');
    expect(await read('/api/v1/client-config')).toBe('200 public, max-age=300');
    expect(await read('/api/v1/openapi.json')).toBe('200 public, max-age=300');
    expect(await read('/api/v1/payment-plans')).toBe('200 -');
  });

  // That the built page has no inline script (so script-src 'self' holds) is checked where the
  // app is built and served: e2e/security-headers.spec.ts.

  it('leaves the object store at /s3 with its own headers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/s3/cutdesk-media/some/key', headers: { origin: 'http://localhost:5173' } });
    expect(response.statusCode).toBe(403); // unsigned: S3's own error
    expect(response.headers['content-type']).toMatch(/xml/);
    expect(response.headers['content-security-policy']).toBe('sandbox');
    expect(response.headers['cross-origin-resource-policy']).toBeUndefined();
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/s3/cutdesk-media/some/key',
      // The app's page (PUBLIC_URL): the store answers CORS for the app's own origins only.
      headers: { origin: new URL(server.config.publicUrl).origin, 'access-control-request-method': 'PUT' },
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe(new URL(server.config.publicUrl).origin);
    expect(preflight.headers['cross-origin-resource-policy']).toBeUndefined();
  });

  it('lets the page reach a separate public S3 endpoint (uploads, previews, HLS) and nothing else', () => {
    const config = loadConfig({ DATA_DIR: server.dataDir, S3_PUBLIC_ENDPOINT: 'https://media.example.com/s3/' });
    const csp = contentSecurityPolicy(config);
    for (const name of ['connect-src', 'img-src', 'media-src']) expect(csp[name]).toContain('https://media.example.com');
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['media-src']).toContain('blob:');
    expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
    const embedded = contentSecurityPolicy(loadConfig({ DATA_DIR: server.dataDir }));
    expect(embedded['connect-src']).toEqual(["'self'"]);
  });

  it('lets Stripe.js load and frame its card field only when Stripe takes the payments', () => {
    const stripe = contentSecurityPolicy(
      loadConfig({ DATA_DIR: server.dataDir, STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' }),
    );
    expect(stripe['script-src']).toEqual(["'self'", 'https://js.stripe.com']);
    expect(stripe['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com']);
    expect(stripe['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
    const embedded = contentSecurityPolicy(loadConfig({ DATA_DIR: server.dataDir }));
    for (const name of ['script-src', 'frame-src', 'connect-src']) expect(embedded[name]!.join(' ')).not.toContain('stripe');
  });
});

describe('trusted proxies', () => {
  const forwarded = { host: 'app.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  async function endpointSeen(server: TestServer): Promise<string> {
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    const organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    const project = await server.app.inject({ method: 'POST', url: `/api/v1/organizations/${organizationId}/projects`, headers: owner, payload: BRIEF });
    const credentials = await server.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/credentials',
      headers: { ...owner, ...forwarded },
      payload: { projectId: project.json<{ id: number }>().id },
    });
    expect(credentials.statusCode).toBe(200);
    return credentials.json<{ endpoint: string }>().endpoint;
  }

  it('by default ignores X-Forwarded-Host/-Proto in the links it hands out', async () => {
    const server = await startTestServer(null);
    try {
      expect(await endpointSeen(server)).toBe('http://app.example.com/s3');
    } finally {
      await server.close();
    }
  });

  it('believes them from a proxy named in TRUST_PROXY', async () => {
    const server = await startTestServer(null, { env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      expect(await endpointSeen(server)).toBe('https://evil.example/s3');
    } finally {
      await server.close();
    }
  });

  it('by default keys per-address limits on the socket address, whatever X-Forwarded-For says', async () => {
    const server = await startTestServer(null, { env: { RATE_LIMIT_PER_IP: '2' } });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const response = await server.app.inject({ method: 'GET', url: '/api/v1/score?token=x', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it('with a trusted proxy, counts each forwarded client apart', async () => {
    const server = await startTestServer(null, { env: { RATE_LIMIT_PER_IP: '2', TRUST_PROXY: '1' } });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const response = await server.app.inject({ method: 'GET', url: '/api/v1/score?token=x', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([200, 200, 200]);
    } finally {
      await server.close();
    }
  });

  it('refuses TRUST_PROXY=true and unreadable addresses', () => {
    expect(() => loadConfig({ DATA_DIR: join(tmpdir(), 'cutdesk-trust-proxy-config'), TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ DATA_DIR: join(tmpdir(), 'cutdesk-trust-proxy-config'), TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ DATA_DIR: join(tmpdir(), 'cutdesk-trust-proxy-config'), TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
    expect(loadConfig({ DATA_DIR: join(tmpdir(), 'cutdesk-trust-proxy-config') }).trustProxy).toBe(false);
  });
});
