import { sql, type Kysely } from 'kysely';

/**
 * Issue 11, subscriptions and billing. Money is integer cents (`integer`: a plan costs far less
 * than 21 million); dates a customer sees are `date`. No card number or CVC has a column: a
 * card is its provider token plus brand, last four digits and expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_plans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('monthly_credits', 'integer', (c) => c.notNull().check(sql`monthly_credits > 0`))
    .addColumn('storage_tb', 'double precision', (c) => c.notNull().check(sql`storage_tb > 0`))
    .addColumn('price_per_month', 'integer', (c) => c.notNull().check(sql`price_per_month >= 0`))
    .addColumn('price_per_year', 'integer', (c) => c.notNull().check(sql`price_per_year >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .addColumn('term_months', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(12)
        .check(sql`term_months between 1 and 36`),
    )
    .addColumn('kit_type', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Three plans to start with; prices are per year paid up front, the monthly figure is that divided by 12.
  await sql`
    insert into payment_plans (name, monthly_credits, storage_tb, price_per_month, price_per_year, currency, term_months, kit_type, sort_order)
    values ('Starter', 2, 1, 49900, 598800, 'usd', 12, 'Starter kit', 1),
           ('Growth', 4, 2, 89900, 1078800, 'usd', 12, 'Interview kit', 2),
           ('Studio', 8, 5, 159900, 1918800, 'usd', 12, 'Studio kit', 3)
  `.execute(db);

  await db.schema
    .createTable('coupons')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off between 1 and 100`))
    .addColumn('amount_off', 'integer', (c) => c.check(sql`amount_off > 0`))
    .addColumn('valid_until', 'date')
    .addColumn('max_redemptions', 'integer', (c) => c.check(sql`max_redemptions > 0`))
    .addColumn('times_redeemed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('coupons_one_discount', sql`(percent_off is null) <> (amount_off is null)`)
    .addCheckConstraint('coupons_within_max', sql`max_redemptions is null or times_redeemed <= max_redemptions`)
    .execute();
  await sql`create unique index coupons_code_unique on coupons (upper(code))`.execute(db);

  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('subscription_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('coupon_redemptions_once', ['organization_id', 'coupon_id'])
    .execute();

  // One customer record per organization at the provider (Stripe's cus_…, the embedded gateway's own).
  await db.schema
    .createTable('billing_customers')
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_customer_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('billing_customers_pk', ['organization_id', 'provider'])
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_payment_method_id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull().check(sql`last4 ~ '^[0-9]{4}$'`))
    .addColumn('exp_month', 'integer', (c) => c.notNull().check(sql`exp_month between 1 and 12`))
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_methods_organization').on('payment_methods').column('organization_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('payment_plans.id'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending','active','past_due','ended','failed')`),
    )
    .addColumn('start_date', 'date', (c) => c.notNull())
    .addColumn('renewable_at', 'date', (c) => c.notNull())
    .addColumn('is_cancelled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_customer_id', 'text')
    // Null while renewals are charged by our own job (no provider-side subscription object).
    .addColumn('provider_subscription_id', 'text')
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('coupon_id', 'integer', (c) => c.references('coupons.id'))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('billing', 'jsonb', (c) => c.notNull())
    .addColumn('shipping', 'jsonb', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('failure_message', 'text')
    // Yearly renewal: failed charge attempts of the current renewal (retries day 1, 3, 7).
    .addColumn('renewal_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subscriptions_idempotency_key', ['organization_id', 'idempotency_key'])
    .execute();
  // At most one live subscription per organization: a second purchase (or a race of two) fails here.
  await sql`create unique index subscriptions_one_live on subscriptions (organization_id) where status in ('pending','active','past_due')`.execute(db);
  await sql`create index subscriptions_due on subscriptions (renewable_at) where status in ('active','past_due')`.execute(db);
  await sql`alter table coupon_redemptions add constraint coupon_redemptions_subscription foreign key (subscription_id) references subscriptions (id) on delete cascade`.execute(
    db,
  );

  await sql`create sequence invoice_numbers`.execute(db);
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('paid','failed','refunded')`))
    .addColumn('period_start', 'date', (c) => c.notNull())
    .addColumn('period_end', 'date', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('invoices_subscription').on('invoices').column('subscription_id').execute();
  // One paid invoice per term of a subscription, so a renewal run twice cannot bill twice.
  await sql`create unique index invoices_one_per_period on invoices (subscription_id, period_start) where status = 'paid'`.execute(db);

  // Webhook events already handled (Stripe delivers at least once).
  await db.schema
    .createTable('billing_events')
    .addColumn('provider_event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The embedded test gateway's own side (what Stripe keeps on its servers in production).
  await db.schema
    .createTable('gateway_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text')
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    // The test card's fixed answer (Stripe's conventions), decided once from the number.
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('succeeds','card_declined','insufficient_funds')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('gateway_charges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('succeeded','failed','canceled')`))
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'gateway_charges',
    'gateway_cards',
    'billing_events',
    'invoices',
    'coupon_redemptions',
    'subscriptions',
    'payment_methods',
    'billing_customers',
    'coupons',
    'payment_plans',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop sequence invoice_numbers`.execute(db);
}
