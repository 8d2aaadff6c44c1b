import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { NewUser, UserRow, UserUpdate } from '../db/schema.ts';

/** Users of every role. Deleted users are invisible to every lookup here. */
export function usersRepo(db: Db) {
  return {
    async findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(email)`, '=', email.trim().toLowerCase())
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
    },
    /** The id of `id` when it is an enabled, live EDITOR (the one a project may be assigned to). */
    async findEnabledEditor(id: number): Promise<{ id: number } | undefined> {
      return db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .where('role', '=', 'EDITOR')
        .where('isEnabled', '=', true)
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
    },
    async create(user: NewUser): Promise<UserRow> {
      return db
        .insertInto('users')
        .values({ ...user, email: user.email.trim() })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async update(id: number, changes: UserUpdate): Promise<void> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },
    /**
     * Applies `changes` and raises the session version in one statement, ending every token
     * signed before (issue 9). Answers the new version, for the token of whoever stays signed in.
     */
    async updateEndingSessions(id: number, changes: UserUpdate = {}): Promise<number> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({ ...changes, sessionVersion: eb('sessionVersion', '+', 1) }))
        .where('id', '=', id)
        .returning('sessionVersion')
        .executeTakeFirst();
      return row?.sessionVersion ?? 0;
    },
  };
}
