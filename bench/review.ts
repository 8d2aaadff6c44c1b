/**
 * bench/review (issue 13): the review page's comment list and its live updates under load.
 * A project in review whose older version holds 1,000 comments and whose current version holds
 * the product's maximum (COMMENTS_PER_VERSION_MAX, 500, the last 20 of them posted during the
 * run), and 100 clients with an event stream open on it (10 accounts, 10 streams each: the
 * server allows 20 per account). Figures:
 *   (a) GET comments of 1,000 and of 500 comments, p50/p99, against GET versions of the same
 *       project in the same run (the same auth and project check, a tiny answer): the ratio is
 *       what the list itself costs;
 *   (b) post → event at every client, p50/p99 over all clients and posts, and the time until the
 *       last client heard it;
 *   (c) post → event + re-read of the whole list at every client (what an open page did before
 *       events named the comment);
 *   (d) post → event + read of the changed thread alone at every client (what it does now).
 *
 * The server runs in a child process of its own (this file with `serve`), so the 100 clients'
 * parsing does not share its event loop. The bulk of the comments is written through the
 * database (one batch insert per version), not the API: the API refuses a version's 501st
 * comment and one account's 61st write in a minute; only the measured posts go through the API.
 * PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, else PGlite (in the server's
 * process, as `npm start` runs it). No timing is asserted anywhere: the figures go to
 * docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { COMMENTS_PER_VERSION_MAX } from '../src/domain/review-rules.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { connectDatabase, type Db } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/migrations/index.ts';
import { reviewRepo } from '../server/repositories/review.ts';
import { DEMO_ORGANIZATION, seedDemo } from '../server/seed/demo.ts';
import { hashSecret } from '../server/services/passwords.ts';

const PASSWORD = 'bench-password';
const OLD_VERSION_COMMENTS = 1_000;
const POSTS = Number(process.env.BENCH_REVIEW_POSTS ?? 20);
/** Two rounds of posts: one where pages re-read the list, one where they read the changed thread. */
const CURRENT_VERSION_SEEDED = COMMENTS_PER_VERSION_MAX - 2 * POSTS;
const ACCOUNTS = 10;
const STREAMS_PER_ACCOUNT = 10;
const LIST_RUNS = Number(process.env.BENCH_REVIEW_LIST_RUNS ?? 200);
/** 25 fps, ten minutes: room for every comment's own frame. */
const DURATION_FRAMES = 15_000;

interface Ready {
  base: string;
  projectId: number;
  database: 'PostgreSQL' | 'PGlite';
  emails: string[];
}

/* ───────────────────────── the server process ───────────────────────── */

async function bulkComments(db: Db, projectId: number, versionId: number, count: number, authors: { id: number; name: string }[]): Promise<void> {
  // Three threads in four have no reply; every fourth comment answers the thread before it.
  let lastThread: number | null = null;
  for (let i = 0; i < count; i++) {
    const author = authors[i % authors.length]!;
    const reply: boolean = i % 4 === 3 && lastThread !== null;
    const row: { id: number } = await db
      .insertInto('reviewComments')
      .values({
        projectId,
        versionId,
        parentId: reply ? lastThread : null,
        authorUserId: author.id,
        authorName: author.name,
        authorRole: 'USER',
        frame: (i * 13) % DURATION_FRAMES,
        endFrame: null,
        text: `Bench comment ${i}: the cut at this moment needs a closer look at the colour and the sound.`,
        drawing: i % 10 === 0 ? JSON.stringify({ shapes: [{ kind: 'rectangle', color: 'red', x: 0.1, y: 0.1, width: 0.3, height: 0.2 }] }) : null,
        resolvedAt: null,
        resolvedBy: null,
        deletedAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!reply) lastThread = row.id;
  }
  // A reply carries its thread's frame (the product's rule).
  await sql`update review_comments r set frame = t.frame from review_comments t where r.parent_id = t.id and r.version_id = ${versionId}`.execute(db);
}

async function serve(): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
  const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-review-'));
  const name = `cutdesk_bench_${randomBytes(4).toString('hex')}`;
  const admin = serverUrl ? new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }) }) : null;
  let databaseUrl: string | null = null;
  if (admin && serverUrl) {
    await sql`create database ${sql.id(name)}`.execute(admin);
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    SEED: 'none',
    LOG_LEVEL: 'silent',
    WEB_DIR: join(dataDir, 'none'),
    RATE_LIMIT_PER_EMAIL: '1000',
    RATE_LIMIT_PER_IP: '100000',
    // Load shedding (503 above this event-loop delay) would cut the very peak being measured.
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir });
  await migrateToLatest(db);
  await seedDemo(db, PASSWORD);
  const project = await db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organizationId')
    .select(['p.id', 'p.organizationId'])
    .where('o.name', '=', DEMO_ORGANIZATION)
    .where('p.status', '=', 'IN_REVIEW')
    .orderBy('p.id')
    .executeTakeFirstOrThrow();
  const passwordHash = await hashSecret(PASSWORD);
  const emails: string[] = [];
  const authors: { id: number; name: string }[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `reviewer${i}@bench.cutdesk.test`;
    const user = await db
      .insertInto('users')
      .values({
        email,
        firstName: 'Reviewer',
        lastName: String(i),
        role: 'USER',
        passwordHash,
        phone: '5550100',
        organizationId: project.organizationId,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    emails.push(email);
    authors.push({ id: user.id, name: `Reviewer ${i}` });
  }
  // Two released versions, as the product records them (deliver, send to review, probe).
  const repo = reviewRepo(db);
  const versionIds: number[] = [];
  for (const number of [1, 2]) {
    const videoPath = `projects/${project.id}/final/bench_v${number}.mp4`;
    const version = await repo.recordDelivery({ projectId: project.id, videoPath, videoSize: 1, previewPath: null }, false);
    await repo.releaseLatest(project.id, new Date());
    await repo.recordMeasure(project.id, videoPath, { frameRate: { num: 25, den: 1 }, durationFrames: DURATION_FRAMES, width: 1280, height: 720 });
    await db.updateTable('projects').set({ finalVideoPath: videoPath, finalVideoSize: 1, versionReleased: true }).where('id', '=', project.id).execute();
    versionIds.push(version.id);
  }
  await bulkComments(db, project.id, versionIds[0]!, OLD_VERSION_COMMENTS, authors);
  await bulkComments(db, project.id, versionIds[1]!, CURRENT_VERSION_SEEDED, authors);
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ready: Ready = {
    base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`,
    projectId: project.id,
    database: databaseUrl ? 'PostgreSQL' : 'PGlite',
    emails,
  };
  console.log(JSON.stringify(ready));
  // The parent closes stdin when it is done (or dies): then clean up.
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (async () => {
      await app.close();
      await db.destroy();
      if (admin) {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
        await admin.destroy();
      }
      await rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

/* ───────────────────────── the clients ───────────────────────── */

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function stats(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Number(percentile(sorted, 50).toFixed(1)), p99: Number(percentile(sorted, 99).toFixed(1)) };
}

async function startServer(): Promise<{ ready: Ready; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('{"base"')) resolve(JSON.parse(line) as Ready);
    });
  });
  return { ready, child };
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login of ${email}: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

async function timedGet(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return performance.now() - started;
}

/** One open review page: its event stream, and what it does on a comment event. */
interface Client {
  /** Resolves on the next comment event, then after the page's read (the whole list, or the thread the event names); with their times. */
  next(read: 'list' | 'thread'): Promise<{ event: number; reread: number }>;
  close(): void;
}

interface Heard {
  at: number;
  commentId: number | null;
}

async function openClient(base: string, projectId: number, token: string, version: number): Promise<Client> {
  const headers = { authorization: `Bearer ${token}` };
  const ticketResponse = await fetch(`${base}/projects/${projectId}/events/ticket`, { method: 'POST', headers });
  if (!ticketResponse.ok) throw new Error(`ticket: ${ticketResponse.status}`);
  const { ticket } = (await ticketResponse.json()) as { ticket: string };
  const abort = new AbortController();
  const stream = await fetch(`${base}/projects/${projectId}/events?ticket=${encodeURIComponent(ticket)}`, { signal: abort.signal });
  if (!stream.ok || !stream.body) throw new Error(`stream: ${stream.status}`);
  // Held in an object: TypeScript does not follow a closure's assignment to a local.
  const pending: { waiter: ((heard: Heard) => void) | null } = { waiter: null };
  const heard: Heard[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          const event = data ? (JSON.parse(data.slice(6)) as { type: string; commentId?: number }) : null;
          if (event?.type !== 'comment') continue;
          const one: Heard = { at: performance.now(), commentId: event.commentId ?? null };
          const resolve = pending.waiter;
          if (resolve) {
            pending.waiter = null;
            resolve(one);
          } else heard.push(one);
        }
      }
    } catch {
      // Aborted at the end of the run.
    }
  })();
  return {
    async next(read) {
      const event = heard.shift() ?? (await new Promise<Heard>((resolve) => (pending.waiter = resolve)));
      if (read === 'thread' && event.commentId === null) throw new Error('a comment event without its comment');
      await timedGet(
        read === 'list' ? `${base}/projects/${projectId}/comments?version=${version}` : `${base}/projects/${projectId}/comments/${event.commentId}`,
        token,
      );
      return { event: event.at, reread: performance.now() };
    },
    close: () => abort.abort(),
  };
}

export async function benchReview(): Promise<Record<string, unknown>> {
  const { ready, child } = await startServer();
  const clients: Client[] = [];
  try {
    const { base, projectId } = ready;
    const poster = await signIn(base, 'owner@demo.cutdesk.test');
    const tokens = await Promise.all(ready.emails.map((email) => signIn(base, email)));
    const reader = tokens[0]!;

    // (a) The list, one request at a time, beside a same-run baseline.
    const list = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) await timedGet(`${base}${path}`, reader);
      for (let i = 0; i < LIST_RUNS; i++) times.push(await timedGet(`${base}${path}`, reader));
      return stats(times);
    };
    const baseline = await list(`/projects/${projectId}/versions`);
    const thousand = await list(`/projects/${projectId}/comments?version=1`);
    const full = await list(`/projects/${projectId}/comments?version=2`);
    const sizeOf = async (path: string) => (await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${reader}` } })).arrayBuffer()).byteLength;

    // (b), (c), (d) 100 open pages; one account posts, every page hears it and reads.
    for (const token of tokens) for (let s = 0; s < STREAMS_PER_ACCOUNT; s++) clients.push(await openClient(base, projectId, token, 2));
    const toEvent: number[] = [];
    const toReread: number[] = [];
    const lastEvent: number[] = [];
    const lastReread: number[] = [];
    const toThread: number[] = [];
    const lastThread: number[] = [];
    const postOnly: number[] = [];
    for (let i = 0; i < 2 * POSTS; i++) {
      const read = i < POSTS ? 'list' : 'thread';
      const waits = clients.map((client) => client.next(read));
      const started = performance.now();
      const response = await fetch(`${base}/projects/${projectId}/comments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${poster}`, 'content-type': 'application/json' },
        body: JSON.stringify({ version: 2, frame: 100 + i * 25, text: `Live comment ${i}` }),
      });
      postOnly.push(performance.now() - started);
      if (response.status !== 201) throw new Error(`post ${i}: ${response.status} ${await response.text()}`);
      const heard = await Promise.all(waits);
      const events = heard.map((h) => h.event - started);
      const rereads = heard.map((h) => h.reread - started);
      toEvent.push(...events);
      lastEvent.push(Math.max(...events));
      (read === 'list' ? toReread : toThread).push(...rereads);
      (read === 'list' ? lastReread : lastThread).push(Math.max(...rereads));
      // A page's reviewer does not post again within the same frame: let the last re-reads settle.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const health = await list('/health');
    return {
      database: ready.database,
      'comments (older version / current version)': `${OLD_VERSION_COMMENTS} / ${COMMENTS_PER_VERSION_MAX}`,
      clients: clients.length,
      posts: POSTS,
      'GET versions (baseline) ms': baseline,
      'GET health ms': health,
      'GET comments, 1,000 ms': {
        ...thousand,
        bytes: await sizeOf(`/projects/${projectId}/comments?version=1`),
        'p50 / baseline p50': Number((thousand.p50 / baseline.p50).toFixed(1)),
      },
      [`GET comments, ${CURRENT_VERSION_SEEDED} ms`]: {
        ...full,
        bytes: await sizeOf(`/projects/${projectId}/comments?version=2`),
        'p50 / baseline p50': Number((full.p50 / baseline.p50).toFixed(1)),
      },
      'POST comment ms': stats(postOnly),
      'post → event, every client ms': stats(toEvent),
      'post → event at the last client ms': stats(lastEvent),
      'post → event + re-read of the list, every client ms': stats(toReread),
      'post → event + re-read of the list at the last client ms': stats(lastReread),
      'last re-read / single GET comments p50': Number((stats(lastReread).p50 / full.p50).toFixed(1)),
      'post → event + read of the thread, every client ms': stats(toThread),
      'post → event + read of the thread at the last client ms': stats(lastThread),
      'last client, list re-read / thread read p50': Number((stats(lastReread).p50 / stats(lastThread).p50).toFixed(1)),
    };
  } finally {
    for (const client of clients) client.close();
    child.stdin?.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (process.argv[2] === 'serve') await serve();
