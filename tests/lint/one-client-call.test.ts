import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33: one client call per operation, shared by every feature. A call of the API is
 * written `api('PATCH', `/users/${id}`, …)` in exactly one module; a feature that needs it
 * imports that module (src/shared, or src/lib for what the session layer reads) instead of
 * spelling the method and path again, so a changed path or body is changed once.
 */

const SRC = join(process.cwd(), 'src');
const CALL = /\b(?:api|callAsGuest)\(\s*'(GET|POST|PUT|PATCH|DELETE)',\s*(['`])(.*?)\2/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `/users/${user.id}` and `/users/${id}` are the same operation. */
const operationOf = (method: string, path: string) => `${method} ${path.replace(/\$\{[^}]*\}/g, '{}')}`;

function callSites(): Map<string, Set<string>> {
  const sites = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(CALL)) {
      const operation = operationOf(match[1]!, match[3]!);
      sites.set(operation, (sites.get(operation) ?? new Set()).add(relative(process.cwd(), file)));
    }
  }
  return sites;
}

describe('one client call per operation', () => {
  it('finds the calls it checks', () => {
    const sites = callSites();
    expect(sites.get('PATCH /users/{}')?.size).toBe(1);
    expect(sites.size).toBeGreaterThan(60);
  });

  it('spells each operation in one module only', () => {
    const copied = [...callSites()].filter(([, files]) => files.size > 1).map(([operation, files]) => `${operation}: ${[...files].join(', ')}`);
    expect(copied, 'move the call to src/shared/<area>/api (or src/lib) and import it').toEqual([]);
  });

  it('names the same operation the same way whatever the variable', () => {
    expect(operationOf('GET', '/organizations/${me.organizationId}')).toBe(operationOf('GET', '/organizations/${id}'));
  });
});
