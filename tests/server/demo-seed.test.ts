import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { nextRenewDate } from '../../src/domain/subscription.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Issue 12: the seeded demo data follows the product's own rules. */
describe('demo seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null);
  });
  afterAll(async () => server.close());

  it('gives every credit row the renew date the renewal rule computes (no day of drift)', async () => {
    const rows = await server.db.selectFrom('credits').selectAll().execute();
    const today = businessToday();
    for (const row of rows) {
      const expected = nextRenewDate({ startDate: row.startDate, endDate: row.endDate, intervalMonths: row.intervalMonths, renewable: row.renewable }, today);
      expect(row.renewDate, `organization ${row.organizationId}`).toBe(expected);
      if (row.renewDate && row.startDate) expect(row.renewDate.slice(8), `organization ${row.organizationId}`).toBe(row.startDate.slice(8));
    }
  });

  it('gives every project its organization review period, so any project in review auto-completes', async () => {
    const rows = await server.db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.organizationId')
      .select(['p.name', 'p.reviewPeriod', 'o.projectReviewPeriod'])
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.reviewPeriod, row.name).toBeGreaterThan(0);
      expect(row.reviewPeriod, row.name).toBe(row.projectReviewPeriod);
    }
  });
});
