import { expect, type APIRequestContext } from '@playwright/test';
import { grantCredits, registerOwner } from './fresh-organization.ts';

/** A suffix that keeps names and e-mails of one run apart from every other run's. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** One API call that must succeed; its JSON answer, or undefined for an empty one. */
export async function api<T = unknown>(request: APIRequestContext, method: 'GET' | 'POST' | 'PATCH', path: string, token?: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`/api/v1${path}`, { method, data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs a demo user in through the API (password demo-password). */
export const login = (request: APIRequestContext, email: string) =>
  api<{ token: string; organizationId: number | null }>(request, 'POST', '/login', undefined, { email, password: 'demo-password' });

/** A fresh Assembly project of `email`'s organization, so tests do not share one. */
export async function newProject(request: APIRequestContext, email: string, name = `Project ${unique()}`): Promise<{ id: number; name: string }> {
  const { token, organizationId } = await login(request, email);
  const response = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film about the round.' },
  });
  expect(response.status()).toBe(201);
  return { id: ((await response.json()) as { id: number }).id, name };
}

/**
 * A project of a new organization with its own credits, sent to editing, with an editor: IN
 * PROGRESS. Not the demo studio's: its few credits are for the specs that need that customer.
 */
export async function projectInProgress(request: APIRequestContext, name: string) {
  const stamp = unique();
  const owner = await registerOwner(request, {
    email: `in-progress-${stamp}@example.com`,
    password: 'progress-pass-1',
    firstName: 'Ines',
    lastName: 'Progress',
    organizationName: `In Progress ${stamp}`,
  });
  await grantCredits(request, owner.organizationId);
  const admin = await login(request, 'admin@demo.cutdesk.test');
  const { id } = await api<{ id: number }>(request, 'POST', `/organizations/${owner.organizationId}/projects`, owner.token, {
    name,
    audience: 'Staff',
    goal: 'Check the staff pages',
    finalVideoLength: '1-2 minutes',
    brief: 'A short film in progress.',
  });
  await api(request, 'POST', `/projects/${id}/submit`, owner.token);
  const editors = await api<{ id: number; email: string }[]>(request, 'GET', '/users?role=editor&start=0&limit=200', admin.token);
  await api(request, 'POST', `/projects/${id}/assign-editor`, admin.token, { editorId: editors.find((e) => e.email === 'editor@demo.cutdesk.test')!.id });
  return { id, admin };
}
