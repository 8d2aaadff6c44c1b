/**
 * The bundle `npm start` runs the server from (scripts/server-bundle.ts, issue 34 "Start-up"):
 * made once and reused while nothing it was made from changed, made again when something did,
 * older bundles cleared away; and a server started from it does what one started from the
 * sources does (migrations found beside their sources, demo data, sign-in, a second start on the
 * data the first left).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimBundle, serverEntry, SERVER_SOURCE_ENTRY } from '../../scripts/server-bundle.ts';
import { portOf, startServerProcess } from '../security/server-process.ts';

type Manifest = { root: string; dir: string; inputs: [string, number, number, number][]; files: string[] };

describe('the server bundle (scripts/server-bundle.ts)', () => {
  let cacheDir = '';
  let entry = '';
  const manifestFile = () => join(cacheDir, 'server-bundle.json');
  const readManifest = async () => JSON.parse(await readFile(manifestFile(), 'utf8')) as Manifest;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'cutdesk-server-bundle-'));
    entry = await serverEntry(cacheDir);
  }, 120_000);
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('is made from the server, the shared domain rules and the packages, not from what Node must load itself', async () => {
    expect(entry).toMatch(/server-bundle-[0-9a-f]{16}\/main\.mjs$/);
    const inputs = (await readManifest()).inputs.map(([path]) => relative(resolve('.'), path));
    expect(inputs).toContain('server/main.ts');
    expect(inputs).toContain('server/migrations/names.ts');
    expect(inputs.some((path) => path.startsWith('src/domain/'))).toBe(true);
    expect(inputs.some((path) => path.startsWith('node_modules/kysely/'))).toBe(true);
    // PGlite finds its WebAssembly beside its own modules: Node loads it from node_modules, and
    // only the file the bundle names is an input (npm moving it makes the bundle stale).
    expect(inputs.filter((path) => path.startsWith('node_modules/@electric-sql/pglite/'))).toEqual(['node_modules/@electric-sql/pglite/dist/index.js']);
    expect(inputs).toContain('node_modules/.package-lock.json');
  });

  it('is reused while unchanged and made again when a file it was made from changed; older bundles are cleared', async () => {
    const madeAt = statSync(entry).mtimeMs;
    expect(await serverEntry(cacheDir)).toBe(entry);
    expect(statSync(entry).mtimeMs).toBe(madeAt);

    // One source as if restored with its old modification time (its change time differs).
    const manifest = await readManifest();
    const edited = manifest.inputs.findIndex(([path]) => path.endsWith('server/app.ts'));
    manifest.inputs[edited]![3] -= 1_000;
    await writeFile(manifestFile(), JSON.stringify(manifest));
    // Bundles of older releases: one a running server still uses, one nobody does; and what a
    // start that died while making one left behind.
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    for (const old of ['server-bundle-0123456789abcdef', 'server-bundle-00000000000000aa']) {
      await mkdir(join(cacheDir, old));
      if (old.endsWith('aa')) await writeFile(join(cacheDir, old, `in-use-${process.pid}`), '');
      utimesSync(join(cacheDir, old), twoHoursAgo, twoHoursAgo);
    }
    await mkdir(join(cacheDir, 'server-bundle-making-4194400'));

    const again = await serverEntry(cacheDir);
    expect(statSync(again).mtimeMs).toBeGreaterThanOrEqual(madeAt);
    // The same sources make the same folder; the manifest is the files' own again.
    expect(again).toBe(entry);
    expect((await readManifest()).inputs[edited]![3]).toBe(statSync(manifest.inputs[edited]![0]).ctimeMs);
    const left = await readdir(cacheDir);
    expect(left).toContain(relative(cacheDir, dirname(entry)));
    expect(left).toContain('server-bundle-00000000000000aa');
    expect(left).not.toContain('server-bundle-0123456789abcdef');
    expect(left).not.toContain('server-bundle-making-4194400');
  }, 120_000);

  it('is made again, not started, when a chunk is missing or the manifest is not one', async () => {
    const chunk = (await readManifest()).files.find((file) => file.startsWith('stripe-provider-') && file.endsWith('.mjs'))!;
    await rm(join(dirname(entry), chunk));
    expect(await serverEntry(cacheDir)).toBe(entry);
    expect(existsSync(join(dirname(entry), chunk))).toBe(true);

    const whole = await readFile(manifestFile(), 'utf8');
    for (const broken of [
      '{}',
      'null',
      '{"broken',
      JSON.stringify({ ...JSON.parse(whole), inputs: 5 }),
      JSON.stringify({ ...JSON.parse(whole), inputs: [] }),
    ]) {
      await writeFile(manifestFile(), broken);
      expect(await serverEntry(cacheDir)).toBe(entry);
      expect(await readFile(manifestFile(), 'utf8')).toBe(whole);
    }
  }, 120_000);

  it('is claimed by the server started from it', () => {
    claimBundle(entry);
    expect(existsSync(join(dirname(entry), `in-use-${process.pid}`))).toBe(true);
  });

  it('names the source files in a stack trace when Node is asked to use its source maps', () => {
    const notADirectory = join(cacheDir, 'data-dir-is-a-file');
    writeFileSync(notADirectory, '');
    const start = spawnSync(process.execPath, ['--enable-source-maps', entry], {
      env: { ...process.env, DATA_DIR: join(notADirectory, 'data'), PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(start.status).not.toBe(0);
    expect(start.stderr).toContain('ENOTDIR');
    expect(start.stderr).toMatch(new RegExp(`${resolve('server/config.ts').replaceAll('/', '\\/')}:\\d+`));
  });

  it('starts from the sources, saying why, when the bundle cannot be made', async () => {
    const notADirectory = join(cacheDir, 'a-file');
    await writeFile(notADirectory, '');
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (text: string) => warnings.push(text);
    try {
      expect(await serverEntry(notADirectory)).toBe(SERVER_SOURCE_ENTRY);
    } finally {
      console.warn = warn;
    }
    expect(warnings.join('\n')).toMatch(/^Starting the server from its sources: its bundle could not be made \(E[A-Z]+: .+\)\.$/);
  }, 120_000);

  it('runs a server that migrates, seeds the demo, signs in, and starts again on the data it left', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-server-bundle-data-'));
    try {
      for (const start of ['fresh', 'existing']) {
        const server = startServerProcess(dataDir, { SEED: 'demo', DEMO_PASSWORD: 'demo-password' }, entry);
        try {
          const port = await portOf(server);
          if (start === 'fresh') expect(server.output()).toContain('owner@demo.cutdesk.test');
          const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
          expect(health.status).toBe(200);
          const signIn = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: 'demo-password' }),
          });
          expect(signIn.status).toBe(200);
        } finally {
          server.child.kill('SIGTERM');
          expect(await server.exited).toBe(0);
        }
      }
      expect(existsSync(join(dataDir, 'migrations.json'))).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
