import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { listRoutes } from './route-list.ts';

/**
 * Issue 9 and 10: who may call a route is declared on the route and enforced by one plugin
 * (server/plugins/auth.ts), and a route is private unless it says otherwise. Every API route
 * of the built app (listed from the app, so a route added later is checked too) answers 401
 * without a token, except this list of public ones — a new public route must be added here,
 * on purpose, in review.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/v1/health',
  // Readiness for balancers and orchestrators: says only which part is down (server/plugins/readiness.ts).
  'GET /api/v1/ready',
  'GET /api/v1/client-config',
  'GET /api/v1/score',
  'POST /api/v1/login',
  'POST /api/v1/register',
  'PUT /api/v1/password-recover',
  'PUT /api/v1/password-recover-complete',
  'GET /api/v1/payment-plans',
  'GET /api/v1/openapi.json',
  'GET /api/v1/reference',
  // Signed links: the token in the path is the credential (server/media/media-links.ts).
  'GET /api/v1/media/:token/:file',
  'GET /api/v1/media/:token/stream/:variant/playlist.m3u8',
  // The raw zip's link (issue 34): a staff session's, checked again at the download (server/services/project-zip.ts).
  'GET /api/v1/zips/:token/:file',
  // Review e-mails' unsubscribe link: its signed token is the credential (issue 13).
  'GET /api/v1/review-mail/unsubscribe',
  'POST /api/v1/review-mail/unsubscribe',
  // Guest review links: the link's token in the path (and a protected link's pass) is the
  // credential, checked against the stored link at every call (server/services/share-links.ts).
  'GET /api/v1/share/:token',
  'POST /api/v1/share/:token/access',
  'GET /api/v1/share/:token/comments',
  'POST /api/v1/share/:token/comments',
  'GET /api/v1/share/:token/events',
  // npm run backup while the server runs: loopback only, with a token derived from the server's
  // secret (server/routes/ops/backup.ts); 404 to anyone else, as if it did not exist.
  'GET /api/v1/ops/backup',
  // Not listed: the event streams (GET projects/:id/events, dashboard/events) are public to the
  // auth plugin because EventSource sends no header, but their 60-second ticket in the query is
  // a credential the route checks (server/events/tickets.ts): without one they answer 401 like
  // any private route, which the test below holds them to.
]);

const concrete = (url: string) =>
  url
    .replace(/:token/g, 'not-a-token')
    .replace(/:variant/g, '720p')
    .replace(/:file/g, 'video.mp4')
    .replace(/:code/g, 'WELCOME10')
    .replace(/:[A-Za-z]+/g, '1');

describe('route access', () => {
  let server: TestServer;
  let routes: { method: string; url: string }[];
  beforeAll(async () => {
    server = await startTestServer(null);
    routes = (await listRoutes(server.app)).filter((route) => route.url.startsWith('/api/v1/') && route.method !== 'HEAD' && route.method !== 'OPTIONS');
  });
  afterAll(() => server.close());

  it('answers 401 without a token on every route but the declared public ones', async () => {
    const refused: string[] = [];
    const open: string[] = [];
    for (const { method, url } of routes) {
      const key = `${method} ${url}`;
      const response = await server.app.inject({
        method: method as 'GET',
        url: concrete(url),
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      if (PUBLIC_ROUTES.has(key)) {
        if (response.statusCode === 401) refused.push(key);
      } else if (response.statusCode !== 401) {
        open.push(`${key} → ${response.statusCode}`);
      }
    }
    expect(open, 'private routes that answered without a token').toEqual([]);
    expect(refused, 'public routes that asked for a token').toEqual([]);
    // The list above names routes that exist: a removed or renamed public route is noticed.
    const listed = new Set(routes.map((route) => `${route.method} ${route.url}`));
    expect([...PUBLIC_ROUTES].filter((key) => !listed.has(key))).toEqual([]);
  });

  it('an unknown API path is a 404 with or without a token', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' })).statusCode).toBe(404);
    const headers = await signIn(server.app, 'owner@demo.cutdesk.test');
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/no-such-thing', headers })).statusCode).toBe(404);
  });

  it('a customer of another organization gets 404 before any role check; staff-only routes refuse customers with 403', async () => {
    const headers = await signIn(server.app, 'owner@demo.cutdesk.test');
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/organizations/999999/credits', headers })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/organizations', headers })).statusCode).toBe(403);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/projects', headers })).statusCode).toBe(403);
  });

  it('an id is written plainly: a sign, a leading zero or an exponent names nothing (404)', async () => {
    const headers = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    const demo = await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow();
    expect((await server.app.inject({ method: 'GET', url: `/api/v1/organizations/${demo.id}/credits`, headers })).statusCode).toBe(200);
    for (const id of [`0${demo.id}`, `00${demo.id}`, `+${demo.id}`, `${demo.id}e0`, '0']) {
      expect((await server.app.inject({ method: 'GET', url: `/api/v1/organizations/${id}/credits`, headers })).statusCode, id).toBe(404);
    }
  });
});
