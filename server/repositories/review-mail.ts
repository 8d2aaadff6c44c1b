import { sql } from 'kysely';
import type { ReviewMailKind } from '../../src/domain/review-mail.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import type { Db } from '../db/connect.ts';

/** The preference column of each review mail kind (migration 0014). */
const COLUMN = { ready: 'reviewMailReady', reminder: 'reviewMailReminder', changes: 'reviewMailChanges', digest: 'reviewMailDigest' } as const;

export interface MailRecipient {
  id: number;
  email: string;
  firstName: string;
  role: RoleName;
  organizationId: number | null;
}

export interface OpenThread {
  frame: number;
  authorName: string;
  text: string;
}

export interface DigestComment {
  projectId: number;
  projectName: string;
  version: number;
  frame: number;
  authorName: string;
  text: string;
  createdAt: Date;
  frameRateNum: number | null;
  frameRateDen: number | null;
}

export type ReviewMailPreferences = Record<ReviewMailKind, boolean>;

const RECIPIENT = ['users.id', 'users.email', 'users.firstName', 'users.role', 'users.organizationId'] as const;

/** Review e-mails: who gets them, what they list, and the ledger that sends each one once. */
export function reviewMailRepo(db: Db) {
  const active = () =>
    db
      .selectFrom('users')
      .select(RECIPIENT)
      .where('users.deletedAt', 'is', null)
      .where('users.isEnabled', '=', true)
      .where('users.passwordHash', 'is not', null);
  return {
    async preferences(userId: number): Promise<ReviewMailPreferences | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['reviewMailReady', 'reviewMailReminder', 'reviewMailChanges', 'reviewMailDigest'])
        .where('id', '=', userId)
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
      return row && { ready: row.reviewMailReady, reminder: row.reviewMailReminder, changes: row.reviewMailChanges, digest: row.reviewMailDigest };
    },

    async setPreferences(userId: number, changes: Partial<ReviewMailPreferences>): Promise<void> {
      const set = Object.fromEntries(Object.entries(changes).map(([kind, on]) => [COLUMN[kind as ReviewMailKind], on]));
      if (Object.keys(set).length === 0) return;
      await db.updateTable('users').set(set).where('id', '=', userId).execute();
    },

    /** The organization's people who want `kind` mails. */
    async organizationRecipients(organizationId: number, kind: ReviewMailKind): Promise<MailRecipient[]> {
      return active().where('users.organizationId', '=', organizationId).where(COLUMN[kind], '=', true).orderBy('users.id').execute();
    },

    /** The assigned editor and every admin and superadmin who want `kind` mails. */
    async editorAndAdmins(editorId: number | null, kind: ReviewMailKind): Promise<MailRecipient[]> {
      return active()
        .where(COLUMN[kind], '=', true)
        .where((eb) => eb.or([eb('users.role', 'in', ['ADMIN', 'SUPERADMIN']), ...(editorId === null ? [] : [eb('users.id', '=', editorId)])]))
        .orderBy('users.id')
        .execute();
    },

    async digestRecipients(): Promise<MailRecipient[]> {
      return active().where('reviewMailDigest', '=', true).orderBy('users.id').execute();
    },

    /** The open threads (not replies, not resolved, not deleted) of one version, by frame. */
    async openThreads(versionId: number): Promise<OpenThread[]> {
      return db
        .selectFrom('reviewComments')
        .select(['frame', 'authorName', 'text'])
        .where('versionId', '=', versionId)
        .where('parentId', 'is', null)
        .where('resolvedAt', 'is', null)
        .where('deletedAt', 'is', null)
        .orderBy('frame')
        .orderBy('id')
        .execute();
    },

    /** Projects in review whose window closes within `withinMs` from `now` (reminder candidates). */
    async reviewsClosingSoon(now: Date, withinMs: number) {
      const closes = sql`review_started_at + review_period * (${86_400_000}::double precision * interval '1 millisecond')`;
      return db
        .selectFrom('projects')
        .select(['id', 'name', 'organizationId', 'status', 'reviewPeriod', 'reviewStartedAt', 'noReviews'])
        .where('status', '=', 'IN_REVIEW')
        .where('reviewPeriod', '>', 0)
        .where('reviewStartedAt', 'is not', null)
        .where(sql<boolean>`${closes} > ${now} and ${closes} <= ${new Date(now.getTime() + withinMs)}`)
        .execute();
    },

    /**
     * New comments since `since` up to `until` that `user` may see, not their own. Customers:
     * their organization's projects, released versions only, never a deleted or hidden project
     * (src/domain/review-rules.ts visibleVersionsFor). Editors: the projects assigned to them;
     * admins and superadmins: every project.
     */
    async digestComments(user: MailRecipient, since: Date, until: Date): Promise<DigestComment[]> {
      let query = db
        .selectFrom('reviewComments as c')
        .innerJoin('projectVersions as v', 'v.id', 'c.versionId')
        .innerJoin('projects as p', 'p.id', 'c.projectId')
        .select([
          'c.projectId',
          'p.name as projectName',
          'v.number as version',
          'c.frame',
          'c.authorName',
          'c.text',
          'c.createdAt',
          'v.frameRateNum',
          'v.frameRateDen',
        ])
        .where('c.createdAt', '>', since)
        .where('c.createdAt', '<=', until)
        .where('c.deletedAt', 'is', null)
        .where((eb) => eb.or([eb('c.authorUserId', 'is', null), eb('c.authorUserId', '!=', user.id)]));
      if (user.role === 'OWNER' || user.role === 'USER') {
        query = query
          .where('p.organizationId', '=', user.organizationId ?? -1)
          .where('v.releasedAt', 'is not', null)
          .where('p.status', 'not in', ['DELETED', 'HIDDEN']);
      } else if (user.role === 'EDITOR') {
        query = query.where('p.editorId', '=', user.id);
      }
      return query.orderBy('p.nameSortKey').orderBy('c.projectId').orderBy('v.number').orderBy('c.frame').orderBy('c.id').execute();
    },

    /** Where this user's next digest starts: the end of the last one, else null. */
    async digestCursor(userId: number): Promise<Date | null> {
      const row = await db
        .selectFrom('reviewMailLedger')
        .select((eb) => eb.fn.max('coveredUntil').as('until'))
        .where('userId', '=', userId)
        .where('kind', '=', 'digest')
        .executeTakeFirst();
      return row?.until ? new Date(row.until) : null;
    },

    /**
     * Claims one mail: true for the one caller (of any instance) whose row went in, false when
     * it was already sent. The unique key decides, so concurrent jobs never send twice.
     */
    async claim(entry: { kind: ReviewMailKind; userId: number; projectId?: number; version?: number; day?: string; coveredUntil?: Date }): Promise<boolean> {
      const row = await db
        .insertInto('reviewMailLedger')
        .values({
          kind: entry.kind,
          userId: entry.userId,
          projectId: entry.projectId ?? 0,
          version: entry.version ?? 0,
          day: entry.day ?? '',
          coveredUntil: entry.coveredUntil ?? null,
        })
        .onConflict((oc) => oc.constraint('review_mail_ledger_once').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
