import { expect, type APIRequestContext } from '@playwright/test';
import { businessToday } from '../src/domain/business-calendar.ts';

export interface FreshOwner {
  token: string;
  headers: { authorization: string };
  organizationId: number;
}

/**
 * Registers a new owner and their organization through the API. The e2e specs share one server,
 * so a spec that changes an organization's data makes its own instead of using the demo's.
 */
export async function registerOwner(
  request: APIRequestContext,
  owner: { email: string; password: string; firstName: string; lastName: string; organizationName: string; phone?: string },
): Promise<FreshOwner> {
  const registered = await request.post('/api/v1/register', {
    data: {
      email: owner.email,
      password: owner.password,
      firstName: owner.firstName,
      lastName: owner.lastName,
      phone: owner.phone ?? '5550123',
      role: 'Owner',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const organization = await request.post('/api/v1/organizations', { headers, data: { name: owner.organizationName } });
  expect(organization.status(), await organization.text()).toBe(201);
  return { token, headers, organizationId: ((await organization.json()) as { id: number }).id };
}

/**
 * Gives an organization a year of credits as staff do on its page (PUT organizations/{id}/credits),
 * so a spec that sends projects to editing spends its own credits, not the demo studio's few.
 */
export async function grantCredits(request: APIRequestContext, organizationId: number, credits = 50): Promise<void> {
  const login = await request.post('/api/v1/login', { data: { email: 'admin@demo.cutdesk.test', password: 'demo-password' } });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  // Credits are active from the business day on (America/New_York): a UTC date is tomorrow there
  // between midnight UTC and the evening before in New York, and the grant would not start yet.
  const today = new Date();
  const isoDay = (date: Date) => businessToday(date);
  const response = await request.put(`/api/v1/organizations/${organizationId}/credits`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      startDate: isoDay(today),
      endDate: isoDay(new Date(today.getTime() + 365 * 86_400_000)),
      renewable: true,
      credits,
      interval: 1,
      creditsPerInterval: credits,
      storage: 2,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * A project of a new organization with its own credits, sent to editing and given the demo
 * editor (IN_EDITING): the specs share one server, and the demo's projects are others' to change.
 */
export async function projectInEditing(
  request: APIRequestContext,
  project: { label: string; firstName: string; lastName: string; name: string; audience: string; goal: string; brief: string },
) {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${project.label}-${stamp}@example.com`;
  const password = `${project.label}-pass-1`;
  const owner = await registerOwner(request, {
    email,
    password,
    firstName: project.firstName,
    lastName: project.lastName,
    organizationName: `${project.label} ${stamp}`,
  });
  await grantCredits(request, owner.organizationId);
  const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
    headers: owner.headers,
    data: { name: project.name, audience: project.audience, goal: project.goal, finalVideoLength: '0-60 seconds', brief: project.brief },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;
  expect((await request.post(`/api/v1/projects/${projectId}/submit`, { headers: owner.headers })).ok()).toBe(true);
  const login = await request.post('/api/v1/login', { data: { email: 'admin@demo.cutdesk.test', password: 'demo-password' } });
  const admin = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const editors = (await (await request.get('/api/v1/users?role=editor&start=0&limit=200', { headers: admin })).json()) as { id: number; email: string }[];
  const editorId = editors.find((e) => e.email === 'editor@demo.cutdesk.test')!.id;
  expect((await request.post(`/api/v1/projects/${projectId}/assign-editor`, { headers: admin, data: { editorId } })).ok()).toBe(true);
  return { projectId, email, password, headers: owner.headers, admin };
}
