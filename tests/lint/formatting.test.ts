import { join } from 'node:path';
import { check, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33: one formatter for the code, checked by `npm run lint` (prettier --check, with the
 * project's .prettierrc.json). This asserts that the check refuses what it should, with the
 * configuration the lint step reads, so a broken or missing configuration cannot pass quietly.
 */

const FILE = join(process.cwd(), 'src', 'domain', 'formatting-probe.ts');

async function formatted(code: string): Promise<boolean> {
  const options = await resolveConfig(FILE);
  expect(options, 'the project has a prettier configuration').not.toBeNull();
  return check(code, { ...options, filepath: FILE });
}

describe('the formatter', () => {
  it('accepts code written the project’s way', async () => {
    expect(await formatted('export const greeting = (name: string): string => `Hello, ${name}`;\n')).toBe(true);
  });

  it('refuses double quotes, a missing semicolon and a line past 160 characters', async () => {
    expect(await formatted('export const greeting = "Hello";\n')).toBe(false);
    expect(await formatted("export const greeting = 'Hello'\n")).toBe(false);
    expect(await formatted(`export const list = [${Array.from({ length: 40 }, (_, i) => `'item-${i}'`).join(', ')}];\n`)).toBe(false);
  });
});
