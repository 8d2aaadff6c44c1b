import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db/connect.ts';
import * as billingMigration from '../../server/migrations/0009-billing.ts';
import billingRoutes, { type BillingRoutesOptions } from '../../server/routes/billing/index.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Billing on the harness's real server and database. Until server/migrations/index.ts lists
 * 0009 and app.ts registers the routes, both are added here as they will be there; once they
 * are, this adds nothing (and the routes read their gateway from the loaded configuration).
 */
export async function ensureBillingSchema(db: Db): Promise<void> {
  const { rows } = await sql<{ exists: string | null }>`select to_regclass('payment_plans')::text as exists`.execute(db);
  if (!rows[0]?.exists) await billingMigration.up(db as never);
}

/** `env`: configuration the server loads (the Stripe keys: app.ts's billing routes read `config.billing`). */
export async function startBillingServer(url: string | null, options: BillingRoutesOptions & { env?: Record<string, string> } = {}): Promise<TestServer> {
  const { env, ...routeOptions } = options;
  const server = await startTestServer(url, env ? { env } : {});
  await ensureBillingSchema(server.db);
  if (!server.app.hasRoute({ method: 'GET', url: '/api/v1/payment-plans' })) {
    await server.app.register(billingRoutes, { prefix: '/api/v1', ...routeOptions });
  }
  await server.app.ready();
  return server;
}

export const VALID_BILLING = {
  name: 'Bea Fern',
  company: 'Blue Fern Bakery',
  phone: '+1 555 0100',
  phone2: '555 0101',
  email: 'billing@bluefern.test',
  address: '1 Main St',
  city: 'Portland',
  code: '97201',
  country: 'US',
};
export const VALID_SHIPPING = {
  name: 'Bea Fern',
  company: 'Blue Fern Bakery',
  phone: '+1 555 0100',
  address: '1 Main St',
  city: 'Portland',
  code: '97201',
  country: 'US',
};

let counter = 0;

/** A new owner with a new organization, through the real registration calls. */
export async function newOwner(
  app: FastifyInstance,
  label = 'Billing',
): Promise<{ headers: { authorization: string }; organizationId: number; email: string }> {
  counter += 1;
  const email = `owner-${Date.now().toString(36)}-${counter}@billing.example.com`;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/v1/register',
    payload: { email, password: 'owner-pass-1', firstName: 'Olive', lastName: 'Owner', phone: '5550199' },
  });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const headers = { authorization: `Bearer ${registered.json<{ token: string }>().token}` };
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/organizations',
    headers,
    payload: { name: `${label} ${Date.now().toString(36)} ${counter}` },
  });
  if (created.statusCode !== 201) throw new Error(`organization failed: ${created.body}`);
  return { headers, organizationId: created.json<{ id: number }>().id, email };
}

/** Every text value of every table, to prove a card number is stored nowhere. */
export async function databaseText(db: Db): Promise<string> {
  const { rows: tables } = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db);
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(db);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}
