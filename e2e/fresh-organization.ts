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
    data: { email: owner.email, password: owner.password, firstName: owner.firstName, lastName: owner.lastName, phone: owner.phone ?? '5550123', role: 'Owner' },
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
    data: { startDate: isoDay(today), endDate: isoDay(new Date(today.getTime() + 365 * 86_400_000)), renewable: true, credits, interval: 1, creditsPerInterval: credits, storage: 2 },
  });
  expect(response.ok(), await response.text()).toBe(true);
}
