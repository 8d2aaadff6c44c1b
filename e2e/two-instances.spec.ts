import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { nginxBinary, startNginx, type RunningNginx } from '../tests/support/nginx.ts';

/**
 * Issue 15, several instances tested together: two server processes on one PostgreSQL database
 * and one object store (the first instance's embedded store; the second reaches it over S3 and
 * issues browsers' upload credentials in the shared database, S3_UPLOAD_CREDENTIALS=database),
 * one JWT_SECRET. Issue 32: behind Debian's nginx, started here with the shipped site
 * (deploy/nginx.conf; tests/support/nginx.ts), as an operator runs it: TRUST_PROXY on both, the
 * browser's uploads through nginx's /s3, the second instance's own S3 calls through nginx's store
 * port. A session from one is good on the other, an upload whose credentials come from one
 * instance is registered on the other, the media jobs are run by both instances' workers, each
 * once, and a change on one shows live on a page of the other (NOTIFY), through nginx too. Each
 * instance's /metrics says what it did. The ports are free ones the system hands out, so nothing
 * else on the machine can clash with them.
 *
 * Which instance a browser's request reaches: nginx decides. The test's upstream block (the part
 * of the site an operator edits) hashes a cookie, so the test pins a browser to the instance it
 * needs by that cookie, the upload worker's requests included (a SharedWorker's requests cannot be
 * routed by Playwright); a request without the cookie is sent round-robin (nginx's hash falls back
 * to it on an empty key), which the test checks in nginx's access log.
 * PostgreSQL only (TEST_DATABASE_URL, as CI sets it).
 */
const SERVER_URL = process.env.TEST_DATABASE_URL;
test.skip(!SERVER_URL, 'needs a PostgreSQL server (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'demo-password';

/** A port no one listens on now (the system's choice), and whose next one is free too. */
async function freePort(taken: number[] = []): Promise<number> {
  const listen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => {
        const { port: chosen } = server.address() as AddressInfo;
        server.close(() => resolve(chosen));
      });
    });
  for (;;) {
    const port = await listen(0);
    // The next port is kept free as well: the embedded store may listen there (S3_PORT, PORT + 1).
    if (port && port < 65535 && !taken.some((other) => Math.abs(other - port) <= 1) && (await listen(port + 1))) return port;
  }
}

/** One counter of an instance's /metrics (the sum of its series matching `labels`). */
async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

interface Instance {
  url: string;
  dataDir: string;
  process: ChildProcess;
}

/** The cookie the test's upstream block hashes (see above). */
const PIN_COOKIE = 'cutdesk_test_instance';

/**
 * A value of the pin cookie that nginx's `hash` sends to the `index`th of two servers of equal
 * weight: its hash is ((crc32(key) >> 16) & 0x7fff) modulo the total weight (ngx_http_upstream_hash_module,
 * compatible with Cache::Memcached). The counts on each instance's /metrics confirm where the
 * requests went.
 */
function pinFor(index: 0 | 1): string {
  for (let n = 0; ; n += 1) if (((crc32(`pin-${n}`) >>> 16) & 0x7fff) % 2 === index) return `pin-${n}`;
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    const ready = await fetch(`${url}/api/v1/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url}:\n${log()}`);
}

/**
 * Both instances serve one copy of the built web app (the one the e2e server built), as two
 * machines deployed from one release would: each registers the files it finds at its start, and a
 * rebuild in this working tree between the two starts would otherwise give them different apps.
 */
let webDir = '';

async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const dataDir = await mkdtemp(join(tmpdir(), `cutdesk-instance-${port}-`));
  let log = '';
  const child = spawn(process.execPath, [resolve('server/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      LOG_LEVEL: 'warn',
      DEMO_VIDEOS: 'off',
      RATE_LIMIT_PER_EMAIL: '1000',
      RATE_LIMIT_PER_IP: '100000',
      MAX_EVENT_LOOP_DELAY_MS: '60000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://localhost:${port}`;
  await waitHealthy(url, child, () => log);
  return { url, dataDir, process: child };
}

async function stop(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.process.exitCode !== null) return;
  const exited = new Promise((r) => instance.process.once('exit', r));
  instance.process.kill('SIGTERM');
  await exited;
  await rm(instance.dataDir, { recursive: true, force: true });
}

async function signInOn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/login/user`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
}

let first: Instance | undefined;
let second: Instance | undefined;
let nginx: RunningNginx | undefined;
let databaseUrl = '';
/** Demo Studio's credits when their monthly grant fell due (set in beforeAll). */
let creditsDue = { active: 0, per: 0 };
const database = `cutdesk_two_${randomBytes(4).toString('hex')}`;
const admin = () => new pg.Client({ connectionString: SERVER_URL });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // Fails here, clearly, on a machine without nginx (.ci/run installs it).
  nginxBinary();
  const client = admin();
  await client.connect();
  await client.query(`create database ${database}`);
  await client.end();
  const target = new URL(SERVER_URL!);
  target.pathname = `/${database}`;
  databaseUrl = target.toString();
  webDir = await mkdtemp(join(tmpdir(), 'cutdesk-release-'));
  await cp(resolve('dist'), webDir, { recursive: true });
  // The minute jobs run every 2 s here (JOB_PERIOD_MS), so the last test waits on what they did
  // (the instances' /metrics), not on minutes of the clock.
  const shared = {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    DEMO_PASSWORD: PASSWORD,
    JOB_PERIOD_MS: '2000',
    TRUST_PROXY: '127.0.0.1',
  };
  // The first instance: the object store (on its port, /s3, and on its own, PORT + 1). Each
  // instance runs one media job at a time.
  const firstPort = await freePort();
  const secondPort = await freePort([firstPort]);
  first = await startInstance(firstPort, { ...shared, MEDIA_CONCURRENCY: '1' });
  // Demo Studio's monthly credits fell due yesterday: each instance's billing job (first run a
  // period after it started) may grant them; the last test checks they were granted once.
  const owned = new pg.Client({ connectionString: databaseUrl });
  await owned.connect();
  const { rows } = await owned.query<{ active: number; per: number }>(
    `update credits set renew_date = current_date - 1 where organization_id = (select id from organizations where name = 'Demo Studio')
     returning active_credits::int as active, credits_per_interval::int as per`,
  );
  creditsDue = rows[0]!;
  await owned.end();
  // nginx before the second instance, whose store is the first's behind nginx's store port.
  // max_fails=0: a failure never moves a pinned browser to the other instance.
  nginx = await startNginx(
    `upstream cutdesk { hash $cookie_${PIN_COOKIE}; server 127.0.0.1:${firstPort} max_fails=0; server 127.0.0.1:${secondPort} max_fails=0; keepalive 8; }
     upstream cutdesk_store { server 127.0.0.1:${firstPort}; keepalive 4; }
     upstream cutdesk_store_port { server 127.0.0.1:${firstPort + 1}; keepalive 4; }`,
    [firstPort, firstPort + 1, secondPort],
  );
  const keys = JSON.parse(await readFile(join(first.dataDir, 's3-credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
  second = await startInstance(secondPort, {
    ...shared,
    SEED: 'none',
    S3_ENDPOINT: `http://127.0.0.1:${nginx.storePort}`,
    S3_ACCESS_KEY_ID: keys.accessKeyId,
    S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
    S3_UPLOAD_CREDENTIALS: 'database',
    S3_PUBLIC_ENDPOINT: `${nginx.url}/s3`,
    MEDIA_CONCURRENCY: '1',
  });
});

test.afterAll(async () => {
  await stop(second);
  await stop(first);
  await nginx?.stop();
  if (webDir) await rm(webDir, { recursive: true, force: true });
  const client = admin();
  await client.connect();
  await client.query(`drop database if exists ${database} with (force)`);
  await client.end();
});

test('two instances on one database and one store work as one', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const [a, b] = [first!.url, second!.url];

  // Signed in on one, the same session works on the other.
  const login = await request.post(`${a}/api/v1/login`, { data: { email: 'owner@demo.cutdesk.test', password: PASSWORD } });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const me = await request.get(`${b}/api/v1/me`, { headers });
  expect(me.status()).toBe(200);
  const { organizationId } = (await me.json()) as { organizationId: number };
  const created = await request.post(`${b}/api/v1/organizations/${organizationId}/projects`, {
    headers,
    data: {
      name: `Two instances ${Date.now()}`,
      audience: 'Everyone',
      goal: 'Prove it',
      finalVideoLength: '0-60 seconds',
      brief: 'One product, two processes.',
    },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;

  // A page on each instance.
  const onA = await (await browser.newContext()).newPage();
  const onB = await (await browser.newContext()).newPage();
  await signInOn(onA, a, 'owner@demo.cutdesk.test');
  await signInOn(onB, b, 'owner@demo.cutdesk.test');
  const streamOn = (page: Page) =>
    page.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/projects/${projectId}/events` && response.status() === 200);
  const streamA = streamOn(onA);
  await onA.goto(`${a}/user/project/${projectId}`);
  await streamA;
  await onB.goto(`${b}/user/project/${projectId}`);

  // Without the pin cookie nginx takes the instances in turn: four reads through it reach both,
  // each under the request id it was sent with (the answer and nginx's log carry it).
  const run = randomBytes(4).toString('hex');
  for (let n = 0; n < 4; n += 1) {
    const read = await request.get(`${nginx!.url}/api/v1/projects/${projectId}`, { headers: { ...headers, 'x-request-id': `rr-${run}-${n}` } });
    expect(read.status()).toBe(200);
    expect(read.headers()['x-request-id']).toBe(`rr-${run}-${n}`);
  }
  const ports = (url: string) => `127.0.0.1:${new URL(url).port}`;
  await expect
    .poll(async () => [...new Set((await nginx!.accessLog()).filter((line) => line.id.startsWith(`rr-${run}-`)).map((line) => line.upstreams.at(-1)))].sort())
    .toEqual([ports(a), ports(b)].sort());

  // A browser behind nginx, pinned to the second instance: a clip's name, the upload credentials
  // (recorded in the database for the first's store) and the registration come from the second,
  // whose media worker starts on the clip's jobs at once (the other looks every 2 s).
  const lbContext = await browser.newContext();
  const pin = (instance: 0 | 1) => lbContext.addCookies([{ name: PIN_COOKIE, value: pinFor(instance), url: nginx!.url }]);
  await pin(1);
  const onLb = await lbContext.newPage();
  await signInOn(onLb, nginx!.url, 'owner@demo.cutdesk.test');
  await onLb.goto(`${nginx!.url}/user/project/${projectId}`);
  const staff = await request.post(`${a}/api/v1/login`, { data: { email: 'admin@demo.cutdesk.test', password: PASSWORD } });
  const staffHeaders = { authorization: `Bearer ${((await staff.json()) as { token: string }).token}` };
  const jobsDone = () =>
    expect
      .poll(
        async () => {
          const jobs = (
            (await (await request.get(`${b}/api/v1/projects/${projectId}/media-jobs`, { headers: staffHeaders })).json()) as {
              data: { jobs: { status: string }[] };
            }
          ).data.jobs;
          return jobs.length > 0 && jobs.every((job) => job.status === 'done') ? 'done' : jobs.map((job) => job.status).join(',');
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .toBe('done');
  const { generateClip } = await import('../tests/support/media.ts');
  const clips = onLb.getByTestId('asset-section-INTERVIEW_CLIP').getByTestId('asset-tile');
  await onLb
    .getByTestId('upload-input-INTERVIEW_CLIP')
    .setInputFiles({ name: 'interview.mp4', mimeType: 'video/mp4', buffer: await generateClip({ seconds: 2, width: 320, height: 240 }) });
  await expect(clips).toHaveCount(1, { timeout: 60_000 });
  expect(await metric(b, 'cutdesk_upload_registrations_total', { type: 'INTERVIEW_CLIP' })).toBe(1);
  await jobsDone();

  // Pinned to the first now: an image whose upload credentials the page still holds from the
  // second (they last an hour) is registered on the first, and shows on the first's own page.
  await pin(0);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await onLb.getByTestId('upload-input-ASSET').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expect(onLb.getByTestId('asset-section-ASSET').getByTestId('asset-tile')).toHaveCount(1, { timeout: 60_000 });
  expect(await metric(b, 'cutdesk_http_requests_total', { method: 'POST', route: '/api/v1/uploads/credentials', status_code: '200' })).toBeGreaterThan(0);
  expect(await metric(a, 'cutdesk_http_requests_total', { method: 'POST', route: '/api/v1/uploads/credentials' })).toBe(0);
  expect(await metric(a, 'cutdesk_upload_registrations_total', { type: 'ASSET' })).toBe(1);
  expect(await metric(b, 'cutdesk_upload_registrations_total', { type: 'ASSET' })).toBe(0);
  await onA.reload();
  const tileOnA = onA.getByTestId('asset-section-ASSET');
  await expect(tileOnA.getByTestId('asset-tile')).toHaveCount(1);
  await expect(tileOnA.locator('img')).toHaveJSProperty('naturalWidth', 1);

  // A second clip, registered on the first: its worker starts on it at once. The media work was
  // spread over both instances' workers, and all of it done once.
  await onLb
    .getByTestId('upload-input-INTERVIEW_CLIP')
    .setInputFiles({ name: 'second take.mp4', mimeType: 'video/mp4', buffer: await generateClip({ seconds: 2, width: 320, height: 240 }) });
  await expect(clips).toHaveCount(2, { timeout: 60_000 });
  await jobsDone();
  expect(await metric(b, 'cutdesk_upload_registrations_total', { type: 'INTERVIEW_CLIP' })).toBe(1);
  expect(await metric(a, 'cutdesk_upload_registrations_total', { type: 'INTERVIEW_CLIP' })).toBe(1);
  const ran = [await metric(a, 'cutdesk_media_job_runs_total', { outcome: 'done' }), await metric(b, 'cutdesk_media_job_runs_total', { outcome: 'done' })];
  expect(ran[0], 'media jobs done by the first instance').toBeGreaterThan(0);
  expect(ran[1], 'media jobs done by the second instance').toBeGreaterThan(0);
  // Each clip's thumbnail, proxy and checksum, and the image's checksum: each done once.
  expect(ran[0]! + ran[1]!).toBe(7);
  // The clip plays on the page, from the store through nginx.
  await clips.first().click();
  const video = onLb.locator('video').first();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await onLb.keyboard.press('Escape');

  // A change made through one instance shows live on the other's open pages: its own, and the
  // page behind nginx (its event stream, opened again, on the first instance).
  const streamLb = streamOn(onLb);
  await onLb.reload();
  await streamLb;
  const renamed = `Renamed on the second ${Date.now()}`;
  expect((await request.patch(`${b}/api/v1/projects/${projectId}`, { headers, data: { name: renamed } })).ok()).toBe(true);
  await expect(onA.getByText(renamed).first()).toBeVisible({ timeout: 15_000 });
  await expect(onLb.getByText(renamed).first()).toBeVisible({ timeout: 15_000 });
  await lbContext.close();
});

/** The e-mails both instances wrote to their outboxes (DATA_DIR/outbox), as raw text. */
async function outboxes(): Promise<string[]> {
  const mails: string[] = [];
  for (const instance of [first!, second!]) {
    const dir = join(instance.dataDir, 'outbox');
    for (const name of await readdir(dir).catch(() => [] as string[])) mails.push(await readFile(join(dir, name), 'utf8'));
  }
  return mails;
}

test('the jobs every instance runs do their work once: a closed review is approved, a reminder mailed once, credits renewed once', async () => {
  test.setTimeout(180_000);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Two demo projects in review: one whose window has just closed, one with half a review day left.
    await client.query(
      `update projects set review_started_at = now() - review_period * interval '1 day' - interval '1 minute' where name = 'Quarterly highlights'`,
    );
    await client.query(`update projects set review_started_at = now() - review_period * interval '1 day' + interval '12 hours' where name = 'Brand anthem'`);
    const statusOf = async (name: string) => (await client.query<{ status: string }>('select status from projects where name = $1', [name])).rows[0]!.status;
    expect(await statusOf('Brand anthem')).toBe('IN_REVIEW');
    // Both instances run the jobs every period (JOB_PERIOD_MS).
    await expect.poll(() => statusOf('Quarterly highlights'), { timeout: 60_000, intervals: [500] }).toBe('APPROVED');
    const reminders = async () => (await outboxes()).filter((mail) => mail.includes('Subject: Reminder: the review of Brand anthem closes tomorrow'));
    await expect.poll(async () => (await reminders()).length, { timeout: 60_000, intervals: [500] }).toBeGreaterThan(0);
    // Each instance's review-mail job has finished two more runs since (its /metrics count them):
    // still one mail per person.
    const mailRuns = (instance: Instance) => metric(instance.url, 'cutdesk_periodic_job_runs_total', { job: 'review-mail', outcome: 'ok' });
    for (const instance of [first!, second!]) {
      const runs = await mailRuns(instance);
      await expect.poll(() => mailRuns(instance), { timeout: 60_000, intervals: [500] }).toBeGreaterThanOrEqual(runs + 2);
    }
    const sent = await reminders();
    const recipients = sent.map((mail) => /^To: (.+)$/m.exec(mail)?.[1]);
    expect(recipients.length).toBeGreaterThan(0);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients).toContain('owner@demo.cutdesk.test');

    // The billing renewals, after each instance's job has run (its own /metrics say so): the
    // credits that fell due were granted once, and the next grant is a month on.
    for (const instance of [first!, second!]) {
      await expect
        .poll(() => metric(instance.url, 'cutdesk_periodic_job_runs_total', { job: 'billing-renewals', outcome: 'ok' }), { timeout: 60_000, intervals: [500] })
        .toBeGreaterThan(0);
    }
    const {
      rows: [credits],
    } = await client.query<{ active: number; due: boolean }>(
      `select active_credits::int as active, renew_date > current_date as due from credits where organization_id = (select id from organizations where name = 'Demo Studio')`,
    );
    expect(credits!.active).toBe(creditsDue.active + creditsDue.per);
    expect(credits!.due).toBe(true);
  } finally {
    await client.end();
  }
});
