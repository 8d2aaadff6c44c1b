import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyOperation } from '../../src/domain/contract/define.ts';
import { OPERATIONS } from '../../src/domain/contract/operations.ts';

/**
 * Issue 33: one definition per operation (src/domain/contract/define.ts), one client call per
 * operation. The browser and the upload worker name an operation by its definition
 * (`call(operations.updateUser, …)`), in exactly one module; a feature that needs it imports
 * that module (src/shared, or src/lib for what the session layer reads). No API path is written
 * by hand, so a changed path, body or answer is changed once, in the definition.
 */

const ROOT = process.cwd();
const CONTRACT = join(ROOT, 'src', 'domain', 'contract');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const isOperation = (value: unknown): value is AnyOperation =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'access' in value;

/** Every defined operation, as `<module>.<export>`. */
async function definitions(): Promise<Map<string, AnyOperation>> {
  const found = new Map<string, AnyOperation>();
  // index.ts only re-exports the modules.
  for (const file of readdirSync(CONTRACT).filter((name) => name.endsWith('.ts') && name !== 'index.ts')) {
    const module = (await import(join(CONTRACT, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (isOperation(value)) found.set(`${file.replace(/\.ts$/, '')}.${name}`, value);
  }
  return found;
}

/** The operations a file names: through `import * as x from '…/contract/<module>.ts'` (`x.name`) or a named import. */
function operationsNamedIn(source: string, defined: Map<string, AnyOperation>): string[] {
  const named = new Set<string>();
  for (const match of source.matchAll(/import \* as (\w+) from '[^']*\/domain\/contract\/([\w-]+)\.ts'/g)) {
    for (const use of source.matchAll(new RegExp(`\\b${match[1]}\\.(\\w+)\\b`, 'g'))) {
      const key = `${match[2]}.${use[1]}`;
      if (defined.has(key)) named.add(key);
    }
  }
  for (const match of source.matchAll(/import \{([^}]*)\} from '[^']*\/domain\/contract\/([\w-]+)\.ts'/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!;
      const key = `${match[2]}.${name}`;
      if (defined.has(key)) named.add(key);
    }
  }
  return [...named];
}

/**
 * Where each operation is named, in one program: the pages (src/) or the upload worker
 * (workers/), which runs apart and cannot share the pages' modules.
 */
async function callSites(program: 'src' | 'workers' = 'src'): Promise<Map<string, Set<string>>> {
  const defined = await definitions();
  const sites = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(ROOT, program))) {
    if (file.startsWith(CONTRACT)) continue;
    for (const operation of operationsNamedIn(readFileSync(file, 'utf8'), defined))
      sites.set(operation, (sites.get(operation) ?? new Set()).add(relative(ROOT, file)));
  }
  return sites;
}

/** A call with the method and path written out (`api('PATCH', `/users/${id}`)`), as every call was before the definitions. */
const HAND_WRITTEN_CALL = /\b(?:api|callAsGuest|send|request)\(\s*'(?:GET|POST|PUT|PATCH|DELETE)',\s*['`]\//g;

describe('one definition and one client call per operation', () => {
  it('finds the calls it checks', async () => {
    const sites = await callSites();
    expect(sites.get('users.updateUser')?.size).toBe(1);
    expect(sites.size).toBeGreaterThan(60);
  });

  it('names each operation in one module of the pages, and of the worker, only', async () => {
    for (const program of ['src', 'workers'] as const) {
      const copied = [...(await callSites(program))]
        .filter(([, files]) => files.size > 1)
        .map(([operation, files]) => `${operation}: ${[...files].join(', ')}`);
      expect(copied, 'move the call to src/shared/<area>/api (or src/lib) and import it').toEqual([]);
    }
  });

  it('writes no method and path of the API by hand in src/ or workers/', () => {
    const written = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'workers'))]
      .filter((file) => !file.startsWith(CONTRACT))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(HAND_WRITTEN_CALL)].map((match) => `${relative(ROOT, file)}: ${match[0]}`));
    expect(written, 'call the operation by its definition: call(operations.x, { params, query, body })').toEqual([]);
    // Nor a URL of the API spelled out for fetch, an EventSource or a link (the base path before an operation's path is fine).
    const spelled = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'workers'))]
      .filter((file) => !file.startsWith(CONTRACT))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line) && /['`]\/api\/v1\/[a-z]/i.test(line))
          .map((line) => `${relative(ROOT, file)}: ${line.trim()}`),
      );
    expect(spelled, 'build the URL from the operation: `/api/v1${operationPath(operation.path, params)}`').toEqual([]);
  });

  it('documents every operation from its definition, and defines every documented operation once', async () => {
    const defined = [...(await definitions()).values()];
    const key = (operation: { method: string; path: string }) => `${operation.method} ${operation.path}`;
    expect(new Set(defined.map(key)).size, 'one definition per method and path').toBe(defined.length);
    const definedKeys = new Set(defined.map(key));
    expect(OPERATIONS.filter((operation) => !definedKeys.has(key(operation))).map(key), 'reference entries without a definition').toEqual([]);
  });
});
