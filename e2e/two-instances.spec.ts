import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';

/**
 * Issue 15, several instances tested together: two server processes on one PostgreSQL database
 * and one object store (the first instance's embedded store; the second reaches it over S3 and
 * issues browsers' upload credentials in the shared database, S3_UPLOAD_CREDENTIALS=database),
 * one JWT_SECRET. The browser works on both alternately: a session from one is good on the
 * other, a file uploaded through the second is the first's, the second's media worker processes
 * what the first stores, and a change on one shows live on a page of the other (NOTIFY).
 * PostgreSQL only (TEST_DATABASE_URL, as CI sets it).
 */
const SERVER_URL = process.env.TEST_DATABASE_URL;
test.skip(!SERVER_URL, 'needs a PostgreSQL server (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'demo-password';
const basePort = Number(process.env.E2E_PORT ?? 8181) + 40;

interface Instance {
  url: string;
  dataDir: string;
  process: ChildProcess;
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    const ready = await fetch(`${url}/api/v1/ready`).then((r) => r.status === 200, () => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url}:\n${log()}`);
}

async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const dataDir = await mkdtemp(join(tmpdir(), `cutdesk-instance-${port}-`));
  let log = '';
  const child = spawn(process.execPath, [resolve('scripts/start.ts')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_VIDEOS: 'off', RATE_LIMIT_PER_EMAIL: '1000', RATE_LIMIT_PER_IP: '100000', MAX_EVENT_LOOP_DELAY_MS: '60000', ...env },
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
let databaseUrl = '';
const database = `cutdesk_two_${randomBytes(4).toString('hex')}`;
const admin = () => new pg.Client({ connectionString: SERVER_URL });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const client = admin();
  await client.connect();
  await client.query(`create database ${database}`);
  await client.end();
  const target = new URL(SERVER_URL!);
  target.pathname = `/${database}`;
  databaseUrl = target.toString();
  const shared = { DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(32).toString('base64url'), DEMO_PASSWORD: PASSWORD };
  // The first instance: the object store, no media worker (so the second's does the media work).
  first = await startInstance(basePort, { ...shared, MEDIA_CONCURRENCY: '0' });
  const keys = JSON.parse(await readFile(join(first.dataDir, 's3-credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
  second = await startInstance(basePort + 1, {
    ...shared,
    SEED: 'none',
    S3_ENDPOINT: `${first.url}/s3`,
    S3_ACCESS_KEY_ID: keys.accessKeyId,
    S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
    S3_UPLOAD_CREDENTIALS: 'database',
    MEDIA_CONCURRENCY: '2',
  });
});

test.afterAll(async () => {
  await stop(second);
  await stop(first);
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
    data: { name: `Two instances ${Date.now()}`, audience: 'Everyone', goal: 'Prove it', finalVideoLength: '0-60 seconds', brief: 'One product, two processes.' },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;

  // A page on each instance.
  const onA = await (await browser.newContext()).newPage();
  const onB = await (await browser.newContext()).newPage();
  await signInOn(onA, a, 'owner@demo.cutdesk.test');
  await signInOn(onB, b, 'owner@demo.cutdesk.test');
  const streamOn = (page: Page) => page.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/projects/${projectId}/events` && response.status() === 200);
  const streamA = streamOn(onA);
  await onA.goto(`${a}/user/project/${projectId}`);
  await streamA;
  await onB.goto(`${b}/user/project/${projectId}`);

  // An image uploaded through the second instance (its credentials, the first's store)...
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await onB.getByTestId('upload-input-ASSET').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expect(onB.getByTestId('asset-section-ASSET').getByTestId('asset-tile')).toHaveCount(1, { timeout: 60_000 });
  // ...is on the first instance's page, served from its store.
  await onA.reload();
  const tileOnA = onA.getByTestId('asset-section-ASSET');
  await expect(tileOnA.getByTestId('asset-tile')).toHaveCount(1);
  await expect(tileOnA.locator('img')).toHaveJSProperty('naturalWidth', 1);

  // A clip uploaded through the first instance is processed by the second's media worker.
  const { generateClip } = await import('../tests/support/media.ts');
  const clip = await generateClip({ seconds: 2, width: 320, height: 240 });
  await onA.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles({ name: 'interview.mp4', mimeType: 'video/mp4', buffer: clip });
  await expect(onA.getByTestId('asset-section-INTERVIEW_CLIP').getByTestId('asset-tile')).toHaveCount(1, { timeout: 60_000 });
  const staff = await request.post(`${a}/api/v1/login`, { data: { email: 'admin@demo.cutdesk.test', password: PASSWORD } });
  const staffHeaders = { authorization: `Bearer ${((await staff.json()) as { token: string }).token}` };
  await expect
    .poll(
      async () => {
        const jobs = ((await (await request.get(`${b}/api/v1/projects/${projectId}/media-jobs`, { headers: staffHeaders })).json()) as { data: { jobs: { status: string }[] } }).data.jobs;
        return jobs.length > 0 && jobs.every((job) => job.status === 'done') ? 'done' : jobs.map((job) => job.status).join(',');
      },
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe('done');

  // A change made through one instance shows live on the other's open page.
  const renamed = `Renamed on the second ${Date.now()}`;
  expect((await request.patch(`${b}/api/v1/projects/${projectId}`, { headers, data: { name: renamed } })).ok()).toBe(true);
  await expect(onA.getByText(renamed).first()).toBeVisible({ timeout: 15_000 });
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

test('the jobs every instance runs do their work once: a closed review is approved, a reminder mailed once', async () => {
  test.setTimeout(240_000);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Two demo projects in review: one whose window has just closed, one with half a review day left.
    await client.query(`update projects set review_started_at = now() - review_period * interval '1 day' - interval '1 minute' where name = 'Quarterly highlights'`);
    await client.query(`update projects set review_started_at = now() - review_period * interval '1 day' + interval '12 hours' where name = 'Brand anthem'`);
    const statusOf = async (name: string) => (await client.query<{ status: string }>('select status from projects where name = $1', [name])).rows[0]!.status;
    expect(await statusOf('Brand anthem')).toBe('IN_REVIEW');
    // Both instances run the jobs every minute.
    await expect.poll(() => statusOf('Quarterly highlights'), { timeout: 150_000, intervals: [2_000] }).toBe('APPROVED');
    const reminders = async () => (await outboxes()).filter((mail) => mail.includes('Subject: Reminder: the review of Brand anthem closes tomorrow'));
    await expect.poll(async () => (await reminders()).length, { timeout: 150_000, intervals: [2_000] }).toBeGreaterThan(0);
    // Another minute: each instance's job has run again since; still one mail per person.
    await new Promise((resolve) => setTimeout(resolve, 65_000));
    const sent = await reminders();
    const recipients = sent.map((mail) => /^To: (.+)$/m.exec(mail)?.[1]);
    expect(recipients.length).toBeGreaterThan(0);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients).toContain('owner@demo.cutdesk.test');
  } finally {
    await client.end();
  }
});
