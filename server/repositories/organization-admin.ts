import { sql, type Updateable } from 'kysely';
import type { OrganizationSort } from '../../src/domain/contract/customers.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { Db } from '../db/connect.ts';
import type { CreditsTable, OrganizationsTable } from '../db/schema.ts';

/** Projects counted as "in progress" and "completed" on the organization report (A§2). */
const IN_PROGRESS: ProjectStatus[] = ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED'];
const COMPLETED: ProjectStatus[] = ['APPROVED', 'ARCHIVED'];

/** An organization with its credits and its owner: one row of the staff lists. */
function rowsQuery(db: Db) {
  return (
    db
      .selectFrom('organizations as o')
      .leftJoin('credits as c', 'c.organizationId', 'o.id')
      .leftJoin('users as u', (join) => join.onRef('u.organizationId', '=', 'o.id').on('u.role', '=', 'OWNER').on('u.deletedAt', 'is', null))
      .where('o.deletedAt', 'is', null)
      .select([
        'o.id',
        'o.name',
        'o.statusId',
        'o.state',
        'o.storageTb',
        'o.usedSpace',
        'o.assetsLink',
        'o.trackingCode',
        'o.projectReviewPeriod',
        'o.renewableAt',
        'o.isCancelled',
        'o.kitOrdered',
        'o.kitType',
        'o.kitOrderedAt',
        'o.createdAt',
        'c.startDate',
        'c.endDate',
        'c.activeCredits',
        'c.usedCredits',
        'c.creditsPerInterval',
        'c.intervalMonths',
        'c.renewable',
        'c.renewDate',
        'u.id as ownerId',
        'u.firstName as ownerFirstName',
        'u.lastName as ownerLastName',
        'u.email as ownerEmail',
        'u.phone as ownerPhone',
      ])
      // The running subscription's plan (one at most: subscriptions_one_live); a cancelled one runs to its end.
      .select((eb) =>
        eb
          .selectFrom('subscriptions as s')
          .innerJoin('paymentPlans as p', 'p.id', 's.planId')
          .select('p.name')
          .whereRef('s.organizationId', '=', 'o.id')
          .where('s.status', 'in', ['active', 'past_due'])
          .limit(1)
          .as('planName'),
      )
  );
}

export type OrganizationListRow = NonNullable<Awaited<ReturnType<ReturnType<typeof rowsQuery>['executeTakeFirst']>>>;

// Text sorts by its sort key (issue 36 item 8, src/domain/collation.ts; `COLLATE "C"` on the
// column): case- and accent-insensitive (A§2), numbers by value, phones by their digits as a
// number. No owner or no phone: null, last either way. The id breaks ties so pages never overlap.
const SORTS: Record<OrganizationSort, ReturnType<typeof sql>> = {
  name: sql`${sql.ref('u.nameSortKey')}`,
  organization: sql`${sql.ref('o.nameSortKey')}`,
  expiry: sql`${sql.ref('c.endDate')}`,
  email: sql`${sql.ref('u.emailSortKey')}`,
  phone: sql`${sql.ref('u.phoneSortKey')}`,
  createdAt: sql`${sql.ref('o.createdAt')}`,
};

/**
 * Text as the customers search compares it (issue 36): lower case, accents dropped (NFD, then
 * the combining marks; ø ł đ ħ ı by hand, as they do not decompose). Plain functions of
 * PostgreSQL 13+, so PGlite and a server fold alike: PGlite has `unaccent` only as a contrib
 * bundle loaded at start, and a server may not let the app create extensions (docs/decisions.md).
 */
const fold = (value: ReturnType<typeof sql>) =>
  sql<string>`translate(regexp_replace(normalize(lower(${value}), NFD), '[\\u0300-\\u036f]', '', 'g'), 'øłđħı', 'oldhi')`;

/** A LIKE pattern that finds `text` anywhere, its own `%`, `_` and `\` taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export interface OrganizationListOptions {
  start: number;
  limit: number;
  sort?: OrganizationSort | undefined;
  order?: 'asc' | 'desc' | undefined;
  statusId?: number | undefined;
  /** Search text: the organization's name, the owner's name or e-mail contains it. */
  q?: string | undefined;
}

export function organizationAdminRepo(db: Db) {
  return {
    async list({
      start,
      limit,
      sort = 'createdAt',
      order = sort === 'createdAt' ? 'desc' : 'asc',
      statusId,
      q,
    }: OrganizationListOptions): Promise<OrganizationListRow[]> {
      let query = rowsQuery(db);
      if (statusId !== undefined) query = query.where('o.statusId', '=', statusId);
      const search = q?.trim();
      if (search) {
        const pattern = fold(sql`${containsPattern(search)}`);
        const matches = (value: ReturnType<typeof sql>) => sql<boolean>`${fold(value)} like ${pattern} escape '\\'`;
        query = query.where(
          () =>
            sql<boolean>`(${matches(sql.ref('o.name'))} or ${matches(sql`${sql.ref('u.firstName')} || ' ' || ${sql.ref('u.lastName')}`)} or ${matches(sql.ref('u.email'))})`,
        );
      }
      return query
        .orderBy(SORTS[sort], (ob) => (order === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('o.id', order)
        .offset(start)
        .limit(limit)
        .execute();
    },
    async row(id: number): Promise<OrganizationListRow | undefined> {
      return rowsQuery(db).where('o.id', '=', id).executeTakeFirst();
    },
    /** Figures of the organization page's report (A§2). */
    async report(id: number): Promise<{ activeProjects: number; completedProjects: number; assetsCount: number; usersCount: number }> {
      const projects = await db
        .selectFrom('projects')
        .where('organizationId', '=', id)
        .where('deletedAt', 'is', null)
        .select((eb) => [
          eb.fn.countAll<number>().filterWhere('status', 'in', IN_PROGRESS).as('active'),
          eb.fn.countAll<number>().filterWhere('status', 'in', COMPLETED).as('completed'),
        ])
        .executeTakeFirstOrThrow();
      const assets = await db
        .selectFrom('assets as a')
        .innerJoin('projects as p', 'p.id', 'a.projectId')
        .where('p.organizationId', '=', id)
        .where('p.deletedAt', 'is', null)
        .where('a.deletedAt', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      const users = await db
        .selectFrom('users')
        .where('organizationId', '=', id)
        .where('deletedAt', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return {
        activeProjects: Number(projects.active),
        completedProjects: Number(projects.completed),
        assetsCount: Number(assets.count),
        usersCount: Number(users.count),
      };
    },
    async update(id: number, changes: Updateable<OrganizationsTable>): Promise<void> {
      await db.updateTable('organizations').set(changes).where('id', '=', id).where('deletedAt', 'is', null).execute();
    },
    /**
     * Credits and the storage quota change together (one form, A§7). The new total applies only
     * if it still covers the credits used *now*: a project sent to editing meanwhile may have
     * used one since the caller read them. One conditional UPDATE decides under the row lock, so
     * the check constraint is never the one to refuse (that would be a 500). Answers the used
     * credits when refused, undefined when saved.
     */
    async updateCredits(
      id: number,
      credits: Updateable<CreditsTable> & { activeCredits: number },
      storageTb: number,
    ): Promise<{ usedCredits: number } | undefined> {
      return db.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('credits')
          .set(credits)
          .where('organizationId', '=', id)
          .where('usedCredits', '<=', credits.activeCredits)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) {
          const row = await tx.selectFrom('credits').select('usedCredits').where('organizationId', '=', id).executeTakeFirst();
          return { usedCredits: row?.usedCredits ?? 0 };
        }
        await tx.updateTable('organizations').set({ storageTb }).where('id', '=', id).execute();
        return undefined;
      });
    },
    /** Soft-deletes the organization and its users, whose sessions end at once and whose e-mails become free. */
    async softDelete(id: number, now: Date): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('organizations').set({ deletedAt: now }).where('id', '=', id).execute();
        // A closed customer is never charged again nor granted credits: its subscription is
        // cancelled (it lapses at its term) and its credits stop renewing.
        await tx
          .updateTable('subscriptions')
          .set({ isCancelled: true, updatedAt: now })
          .where('organizationId', '=', id)
          .where('status', 'in', ['pending', 'active', 'past_due'])
          .execute();
        await tx.updateTable('credits').set({ renewable: false }).where('organizationId', '=', id).execute();
        await tx
          .updateTable('users')
          .set((eb) => ({ deletedAt: now, sessionVersion: eb('sessionVersion', '+', 1) }))
          .where('organizationId', '=', id)
          .where('deletedAt', 'is', null)
          .execute();
      });
    },
  };
}
