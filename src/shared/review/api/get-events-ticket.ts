import { EventTicketStruct } from '@/domain/contract/events.ts';
import { api } from '@/lib/api-client.ts';

/** A 60-second ticket that opens the project's event stream (POST projects/{id}/events/ticket). */
export async function getProjectEventsTicket(projectId: number): Promise<string> {
  return (await api('POST', `/projects/${projectId}/events/ticket`, { struct: EventTicketStruct })).ticket;
}
