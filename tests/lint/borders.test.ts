import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Issue 10: the layers of docs/architecture.md hold because lint fails on a crossing. Each case
 * lints one deliberate violation, placed where it would live (the file need not exist: imports
 * resolve from its path), and expects the rule that guards that border to fail it; the last
 * case checks that the allowed imports stay allowed. The rules themselves: eslint.config.js.
 */

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => message.ruleId ?? 'parse');
}

const VIOLATIONS: { border: string; filePath: string; code: string; rule: string }[] = [
  {
    border: 'src/domain imports nothing outside itself (alias)',
    filePath: 'src/domain/lint-probe.ts',
    code: "import { Button } from '@/ui/button.tsx';\nexport const probe = Button;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'src/domain imports nothing outside itself (relative)',
    filePath: 'src/domain/lint-probe.ts',
    code: "import { formatDate } from '../lib/format.ts';\nexport const probe = formatDate;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'src/domain uses no Node',
    filePath: 'src/domain/lint-probe.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
    rule: 'no-restricted-imports',
  },
  {
    border: 'src/ui imports only domain and ui',
    filePath: 'src/ui/lint-probe.tsx',
    code: "import { call } from '@/lib/api-client.ts';\nexport const probe = call;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'src/lib imports no ui',
    filePath: 'src/lib/lint-probe.ts',
    code: "import { Button } from '../ui/button.tsx';\nexport const probe = Button;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'src/shared imports no feature',
    filePath: 'src/shared/billing/lint-probe.ts',
    code: "import { SettingsPage } from '@/features/settings/settings-page.tsx';\nexport const probe = SettingsPage;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'features never import each other',
    filePath: 'src/features/settings/lint-probe.tsx',
    code: "import { DashboardPage } from '../dashboard/dashboard-page.tsx';\nexport const probe = DashboardPage;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'features do not import src/app',
    filePath: 'src/features/settings/lint-probe.tsx',
    code: "import { AppRoutes } from '@/app/routes.tsx';\nexport const probe = AppRoutes;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'only src/lib/state.ts imports jotai',
    filePath: 'src/features/settings/lint-probe.tsx',
    code: "import { atom } from 'jotai';\nexport const probe = atom(1);\n",
    rule: 'no-restricted-imports',
  },
  {
    border: 'only the worker facades import workers/',
    filePath: 'src/features/settings/lint-probe.tsx',
    code: "import type { MediaWorkerApi } from '../../../workers/media.worker.ts';\nexport type Probe = MediaWorkerApi;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'workers import src/domain only',
    filePath: 'workers/lint-probe.ts',
    code: "import { formatDate } from '../src/lib/format.ts';\nexport const probe = formatDate;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'server imports src/domain only',
    filePath: 'server/lint-probe.ts',
    code: "import { formatDate } from '../src/lib/format.ts';\nexport const probe = formatDate;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    border: 'server knows no @/ alias',
    filePath: 'server/lint-probe.ts',
    code: "import { MESSAGES } from '@/domain/messages.ts';\nexport const probe = MESSAGES;\n",
    rule: 'no-restricted-imports',
  },
  {
    border: 'routes hold no SQL',
    filePath: 'server/routes/lint-probe.ts',
    code: "import type { Db } from '../db/connect.ts';\nexport const probe = (db: Db) => db.selectFrom('users').selectAll().execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'services hold no SQL (issue 33)',
    filePath: 'server/services/lint-probe.ts',
    code: "import type { Db } from '../db/connect.ts';\nexport const probe = (db: Db) => db.selectFrom('users').selectAll().execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'routes declare access, never check a role by hand (issue 33)',
    filePath: 'server/routes/lint-probe.ts',
    code: "import { isStaffRole } from '../../src/domain/roles.ts';\nimport { forbidden } from '../http-error.ts';\nexport const probe = (role: string) => {\n  if (!isStaffRole(role)) throw forbidden();\n};\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'routes declare organizationParam, never compare organizations by hand (issue 33)',
    filePath: 'server/routes/lint-probe.ts',
    code: "import { notFound } from '../http-error.ts';\nexport const probe = (mine: number | null, id: number) => {\n  if (({ organizationId: mine }).organizationId !== id) throw notFound();\n};\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'the demo seeds hold no SQL: their rows go through server/repositories/demo-seed.ts (issue 33)',
    filePath: 'server/seed/lint-probe.ts',
    code: "import { sql } from 'kysely';\nimport type { Db } from '../db/connect.ts';\nexport const probe = (db: Db) => sql`select 1`.execute(db);\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'billing holds no SQL (issue 33)',
    filePath: 'server/billing/lint-probe.ts',
    code: "import type { Db } from '../db/connect.ts';\nexport const probe = (db: Db) => db.selectFrom('subscriptions').selectAll().execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    border: 'services take plain arguments, not Fastify objects',
    filePath: 'server/services/lint-probe.ts',
    code: "import type { FastifyRequest } from 'fastify';\nexport const probe = (request: FastifyRequest) => request.ip;\n",
    rule: 'no-restricted-imports',
  },
];

describe('layer borders fail lint', () => {
  for (const { border, filePath, code, rule } of VIOLATIONS) {
    it(border, async () => {
      expect(await ruleIds(filePath, code)).toContain(rule);
    });
  }

  it('allowed imports pass: a feature takes src/shared, src/ui, src/lib and src/domain', async () => {
    const code = [
      "import { listPlans } from '@/shared/billing/api/list-plans.ts';",
      "import { Button } from '@/ui/button.tsx';",
      "import { formatDate } from '@/lib/format.ts';",
      "import { BILLING_MESSAGES } from '@/domain/billing.ts';",
      'export const probe = [listPlans, Button, formatDate, BILLING_MESSAGES];',
      '',
    ].join('\n');
    expect(await ruleIds('src/features/settings/lint-probe.tsx', code)).toEqual([]);
  });
});
