import * as operations from '@/domain/contract/events.ts';
import { call } from '@/lib/api-client.ts';

/** A 60-second ticket that opens the project's event stream (POST projects/{id}/events/ticket). */
export async function getProjectEventsTicket(projectId: number): Promise<string> {
  return (await call(operations.projectEventsTicket, { params: { id: projectId } })).ticket;
}
