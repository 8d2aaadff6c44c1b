import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, pageAt, pathTo, portalPattern, type PageName } from '../../src/domain/pages.ts';

/** Issue 33: every page is named once, in src/domain/pages.ts. */

describe('the route table', () => {
  it('builds each page path from its name and parameters', () => {
    expect(pathTo('dashboard')).toBe('/dashboard');
    expect(pathTo('project', { id: 12 })).toBe('/user/project/12');
    expect(pathTo('staffProject', { id: 12 })).toBe('/project/12');
    expect(pathTo('guestReview', { token: 'a.b-c_d' })).toBe('/review/a.b-c_d');
  });

  it('finds the page of a path, and none for a path no page has', () => {
    expect(pageAt('/user/project/12')?.name).toBe('project');
    expect(pageAt('/user/project/12/')?.name).toBe('project');
    expect(pageAt('/project/7')?.name).toBe('staffProject');
    expect(pageAt('/organization/7')?.page.portal).toBe('staff');
    expect(pageAt('/user/project/abc')).toBeNull();
    expect(pageAt('/review/../../x')).toBeNull();
    expect(pageAt('/dashboards')).toBeNull();
  });

  it('reads back every path it builds', () => {
    for (const name of Object.keys(PAGES) as PageName[]) {
      const path = PAGES[name].path.replace(':id', '42').replace(':token', 'tok-en');
      expect(pageAt(path)?.name, path).toBe(name);
    }
  });

  it('gives each portal one pattern for exactly its pages', () => {
    const customer = portalPattern('customer');
    const staff = portalPattern('staff');
    expect(customer.test('/user/projects')).toBe(true);
    expect(customer.test('/user/project/3/')).toBe(true);
    expect(customer.test('/dashboard')).toBe(false);
    expect(staff.test('/organization/3')).toBe(true);
    expect(staff.test('/user/projects')).toBe(false);
  });
});

/** Everywhere a page's path could be written, but its own table and the API's paths. */
const SPELLED_ONCE = [
  'src/app',
  'src/features',
  'src/shared',
  'src/lib',
  'src/ui',
  'src/domain/route-guard.ts',
  'src/domain/user-management.ts',
  'server/services',
  'server/routes',
  'server/billing',
];

function files(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(path, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(path, entry.name)] : [],
    );
  } catch {
    return [path];
  }
}

describe('page paths are spelled only in the table', () => {
  it('the router, portals, shells, guard, return paths, the pages’ links and the server’s links use pathTo and PAGES', () => {
    const paths = Object.values(PAGES).map((page) => page.path.replace(/:[a-z]+$/, ''));
    const spelled: string[] = [];
    for (const file of SPELLED_ONCE.flatMap(files)) {
      // Comments may show an example path; the API's own routes (`app.post('/login'`) are not pages.
      const text = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line) && !/\bapp\.(?:get|post|put|patch|delete)\(|\b(?:api|callAsGuest)\('/.test(line))
        .join('\n');
      for (const path of paths) {
        // A quoted page path, or one that starts a template or a JSX attribute: `'/dashboard'`, `"/user/project/`, `` `/review/ ``.
        const quoted = new RegExp(`["'\`}]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path.endsWith('/') ? '' : `["'\`?#]`}`);
        if (quoted.test(text)) spelled.push(`${file}: ${path}`);
      }
    }
    expect(spelled).toEqual([]);
  });
});
