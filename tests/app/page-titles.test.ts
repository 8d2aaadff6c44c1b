import { describe, expect, it } from 'vitest';
import { documentTitle, pageNameFor } from '../../src/app/page-titles.ts';

const titleOf = (path: string, projectName: string | null = null) => documentTitle(pageNameFor(path, projectName));

describe('document titles (issue 12)', () => {
  it.each([
    ['/user/projects', 'Projects · Cutdesk'],
    ['/user/content-library', 'Content Library · Cutdesk'],
    ['/user/admin-settings', 'Admin Settings · Cutdesk'],
    ['/user/create-project', 'New project · Cutdesk'],
    ['/admin-settings', 'Admin Settings · Cutdesk'],
    ['/dashboard', 'Dashboard · Cutdesk'],
    ['/customers', 'Customers · Cutdesk'],
    ['/editors', 'Editors · Cutdesk'],
    ['/onboarding', 'Onboarding · Cutdesk'],
    ['/organization/4', 'Organization · Cutdesk'],
    ['/login', 'Sign in · Cutdesk'],
    ['/login/user', 'Sign in · Cutdesk'],
    ['/register', 'Create your account · Cutdesk'],
    ['/pricing', 'Pricing · Cutdesk'],
    ['/help', 'Help · Cutdesk'],
    ['/404', 'Page not found · Cutdesk'],
  ])('%s is "%s"', (path, title) => {
    expect(titleOf(path)).toBe(title);
  });

  it('ignores a trailing slash', () => {
    expect(titleOf('/user/projects/')).toBe('Projects · Cutdesk');
  });

  it('names a project page after its project, for customers and staff alike', () => {
    expect(titleOf('/user/project/12', 'Brand anthem')).toBe('Brand anthem · Cutdesk');
    expect(titleOf('/project/12', 'Brand anthem')).toBe('Brand anthem · Cutdesk');
  });

  it('says "Project" until the project has loaded', () => {
    expect(titleOf('/user/project/12')).toBe('Project · Cutdesk');
    expect(titleOf('/project/12', '   ')).toBe('Project · Cutdesk');
  });

  it('uses a project name only on project pages', () => {
    expect(titleOf('/user/projects', 'Brand anthem')).toBe('Projects · Cutdesk');
  });

  it('leaves paths that only redirect without a name', () => {
    expect(pageNameFor('/', null)).toBeNull();
    expect(pageNameFor('/user', null)).toBeNull();
    expect(pageNameFor('/nope', null)).toBeNull();
    expect(documentTitle(null)).toBe('Cutdesk');
  });
});
