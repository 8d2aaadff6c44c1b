import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressBuild } from '../../scripts/compress-build.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 14 "First load": the built app goes out compressed — brotli to browsers that take it,
 * gzip to those that take only that, the plain file otherwise — and every answer says it varies
 * by Accept-Encoding, so a shared cache never hands brotli to a client that cannot read it.
 */
describe('the built app is sent compressed', () => {
  let webDir: string;
  let server: TestServer;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
  const shell = `<!doctype html><html><head><title>Cutdesk</title></head><body>${'<div class="shell"></div>'.repeat(80)}</body></html>`;
  const signIn = `<!doctype html><html><head><title>Sign in · Cutdesk</title></head><body><div id="root" data-prerendered="/login">${'<form></form>'.repeat(80)}</div></body></html>`;

  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'cutdesk-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), shell);
    // The staff sign-in page as the build prerenders it; the customers' is left out here.
    await mkdir(join(webDir, 'prerendered'));
    await writeFile(join(webDir, 'prerendered', 'login.html'), signIn);
    await writeFile(join(webDir, 'assets', 'app-abc.js'), script);
    await writeFile(join(webDir, 'assets', 'tiny-abc.js'), 'export {};\n');
    await writeFile(join(webDir, 'assets', 'logo-abc.png'), Buffer.alloc(4096, 7));
    await compressBuild(webDir);
    server = await startTestServer(null, { seed: false, env: { WEB_DIR: webDir } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies that decode to the same bytes, for text files worth it only', async () => {
    const files = (await readdir(join(webDir, 'assets'))).sort();
    expect(files).toEqual(['app-abc.js', 'app-abc.js.br', 'app-abc.js.gz', 'logo-abc.png', 'tiny-abc.js']);
    const get = (encoding: string) => server.app.inject({ method: 'GET', url: '/assets/app-abc.js', headers: { 'accept-encoding': encoding } });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    for (const response of [br, gz, plain]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends the app shell compressed on every page address, still never cached', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/user/projects', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(shell);
  });

  it('sends a prerendered sign-in page for its exact address, and the shell for any other request of it (issue 34)', async () => {
    const page = async (url: string) => {
      const response = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      return brotliDecompressSync(response.rawPayload).toString();
    };
    expect(await page('/login')).toBe(signIn);
    // A query can change what the page shows (a prefilled e-mail): the browser renders it.
    expect(await page('/login?email=a%40example.com')).toBe(shell);
    expect(await page('/login/')).toBe(shell);
    // A page whose prerendered file the build did not leave is the shell, as every other page.
    expect(await page('/login/user')).toBe(shell);
  });

  it('answers HEAD of a page address as GET without the body (uptime checks, link checkers)', async () => {
    const get = await server.app.inject({ method: 'GET', url: '/login' });
    const head = await server.app.inject({ method: 'HEAD', url: '/login' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-type']).toMatch(/html/);
    expect(head.headers['cache-control']).toBe('no-cache');
    expect(head.body).toBe('');
    expect((await server.app.inject({ method: 'HEAD', url: '/assets/page-gone123.js' })).statusCode).toBe(404);
  });

  it('answers 404 for a built file that is not there, not the shell (an old page asking for a replaced chunk)', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/assets/page-gone123.js', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).not.toMatch(/html/);
  });
});
