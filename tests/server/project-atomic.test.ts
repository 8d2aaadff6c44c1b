import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/project-rules.ts';
import { REVIEW_DAY_MS } from '../../src/domain/review-window.ts';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { slaSortKey } from '../../src/domain/sla-timer.ts';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { completeClosedReviews } from '../../server/services/review-auto-complete.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

const BRIEF = { name: 'Atomic film', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film about our launch.' };

describe.each(DATABASES)('atomic project changes on $name (issue 10)', ({ url }) => {
  let server: TestServer;
  let owner: { authorization: string };
  let admin: { authorization: string };
  let organizationId: number;
  let editorId: number;

  const call = (method: 'GET' | 'POST' | 'PUT', path: string, headers: Record<string, string>, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers });

  /** Status, timer fields and stored keys, in one read. */
  const snapshot = (db: Db, id: number) =>
    db
      .selectFrom('projects')
      .select(['status', 'latestSubmittedAt', 'pausedAt', 'totalPausedMinutes', 'slaDeadline', 'slaFrozen', 'noReviews', 'reviewStartedAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** The stored keys equal the domain's computation from the same row. */
  const expectFreshKeys = async (id: number) => {
    const row = await snapshot(server.db, id);
    const key = slaSortKey(row, new Date(), US_FEDERAL_CALENDAR);
    expect({ status: row.status, deadline: row.slaDeadline, frozen: row.slaFrozen }).toEqual({
      status: row.status,
      deadline: key.deadline,
      frozen: key.frozen,
    });
    return row;
  };

  beforeAll(async () => {
    server = await startTestServer(url);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    editorId = (await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
    // Enough credits for every project these tests send to editing.
    await server.db
      .updateTable('credits')
      .set((eb) => ({ activeCredits: eb('usedCredits', '+', 20) }))
      .where('organizationId', '=', organizationId)
      .execute();
  });
  afterAll(async () => server?.close());

  it('stores the SLA keys with the status on every transition', async () => {
    const id = (await call('POST', `/organizations/${organizationId}/projects`, owner, BRIEF)).json().id as number;
    await expectFreshKeys(id);
    // Stale keys before each step: only the transition itself can make them right again.
    const stale = () => server.db.updateTable('projects').set({ slaDeadline: -1, slaFrozen: -1 }).where('id', '=', id).execute();
    const steps: [string, string, Record<string, string>, unknown?][] = [
      ['submit', 'WAITING_FOR_EDITOR', owner],
      ['assign-editor', 'IN_EDITING', admin, { editorId }],
      ['pause', 'PAUSED', admin],
      ['resume', 'IN_EDITING', admin],
      ['submit', 'IN_REVIEW', admin],
      ['submit', 'IN_EDITING', owner],
      ['submit', 'IN_REVIEW', admin],
      ['approve', 'APPROVED', owner],
      ['restore_to_review', 'IN_REVIEW', admin],
      ['approve', 'APPROVED', owner],
      ['archive', 'ARCHIVED', admin],
      ['hide', 'HIDDEN', admin],
      ['restore', 'ARCHIVED', admin],
    ];
    // A delivered cut whose preview is made (issue 36: send to review waits for it).
    await finalPreviewReady(server.db, id);
    for (const [path, status, headers, body] of steps) {
      await stale();
      const response = await call('POST', `/projects/${id}/${path}`, headers, body);
      expect(response.statusCode, `${path} → ${status}: ${response.body}`).toBe(200);
      expect((await expectFreshKeys(id)).status).toBe(status);
    }
  });

  it('keeps the keys stale-free for a reader polling during transitions', async () => {
    const id = (await call('POST', `/organizations/${organizationId}/projects`, owner, BRIEF)).json().id as number;
    await server.db.updateTable('projects').set({ finalVideoPreview: 'previews/atomic.mp4' }).where('id', '=', id).execute();
    await call('POST', `/projects/${id}/submit`, owner);
    await call('POST', `/projects/${id}/assign-editor`, admin, { editorId });
    let done = false;
    const seen: string[] = [];
    const reader = (async () => {
      while (!done) {
        const row = await snapshot(server.db, id);
        const key = slaSortKey(row, new Date(), US_FEDERAL_CALENDAR);
        if (row.slaDeadline !== key.deadline || row.slaFrozen !== key.frozen)
          seen.push(`${row.status}: ${row.slaDeadline}/${row.slaFrozen} ≠ ${key.deadline}/${key.frozen}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let round = 0; round < 5; round += 1) {
      expect((await call('POST', `/projects/${id}/pause`, admin)).statusCode).toBe(200);
      expect((await call('POST', `/projects/${id}/resume`, admin)).statusCode).toBe(200);
    }
    done = true;
    await reader;
    expect(seen).toEqual([]);
  });

  describe('review auto-complete', () => {
    /** IN_REVIEW projects: two closed windows, one open, one without a timer; stale SLA keys on all. */
    const setUp = async (prefix: string) => {
      const make = async (name: string, reviewPeriod: number, startedDaysAgo: number) => {
        const id = (await call('POST', `/organizations/${organizationId}/projects`, owner, { ...BRIEF, name: `${prefix} ${name}` })).json().id as number;
        const submittedAt = new Date(Date.now() - 10 * REVIEW_DAY_MS);
        await server.db
          .updateTable('projects')
          .set({
            status: 'IN_REVIEW',
            editorId,
            finalVideoPreview: 'previews/x.mp4',
            latestSubmittedAt: submittedAt,
            pausedAt: new Date(submittedAt.getTime() + 3 * REVIEW_DAY_MS),
            totalPausedMinutes: 30,
            noReviews: 1,
            reviewPeriod,
            reviewStartedAt: new Date(Date.now() - startedDaysAgo * REVIEW_DAY_MS),
            versionReleased: true,
            slaDeadline: -1,
            slaFrozen: -1,
          })
          .where('id', '=', id)
          .execute();
        return id;
      };
      return { closed: [await make('a', 3, 4), await make('b', 1, 2)], open: [await make('c', 7, 1), await make('d', 0, 30)] };
    };
    const target = () => {
      const decision = decide('approve', 'OWNER', { status: 'IN_REVIEW', hasFinalPreview: true, hasEditor: true });
      if (!decision.allowed || !decision.next) throw new Error('approve is not allowed from IN_REVIEW');
      return decision.next;
    };
    const check = async ({ closed, open }: { closed: number[]; open: number[] }, before: Map<number, Awaited<ReturnType<typeof snapshot>>>) => {
      for (const id of closed) {
        const row = await snapshot(server.db, id);
        expect(row.status).toBe(target());
        expect(row.noReviews).toBe(before.get(id)!.noReviews);
        expect(row.reviewStartedAt).toEqual(before.get(id)!.reviewStartedAt);
        expect({ deadline: row.slaDeadline, frozen: row.slaFrozen }).toEqual(slaSortKey(row, new Date(), US_FEDERAL_CALENDAR));
      }
      for (const id of open) expect(await snapshot(server.db, id)).toEqual(before.get(id));
    };
    const remember = async (ids: number[]) => new Map(await Promise.all(ids.map(async (id) => [id, await snapshot(server.db, id)] as const)));

    it("moves exactly the closed windows to the state machine's status, once when run twice", async () => {
      const projects = await setUp('twice');
      const before = await remember([...projects.closed, ...projects.open]);
      expect(await completeClosedReviews(server.db)).toBe(projects.closed.length);
      expect(await completeClosedReviews(server.db)).toBe(0);
      await check(projects, before);
    });

    it('moves each closed window once when several runs go at the same time (from two connections on PostgreSQL)', async () => {
      // PGlite has one connection: the runs still race through it, as two instances' jobs would.
      const second = url ? await connectDatabase({ databaseUrl: server.config.databaseUrl, dataDir: server.dataDir }) : server.db;
      try {
        for (let round = 0; round < 3; round += 1) {
          const projects = await setUp(`race ${round}`);
          const before = await remember([...projects.closed, ...projects.open]);
          const counts = await Promise.all([
            completeClosedReviews(server.db),
            completeClosedReviews(second),
            completeClosedReviews(second),
            completeClosedReviews(server.db),
          ]);
          expect(counts.reduce((a, b) => a + b, 0)).toBe(projects.closed.length);
          await check(projects, before);
        }
      } finally {
        if (second !== server.db) await second.destroy();
      }
    });
  });
});
