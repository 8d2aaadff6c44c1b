import { EventTicketStruct } from '@/domain/contract/events.ts';
import { api } from '@/lib/api-client.ts';

/** A 60-second ticket that opens the staff dashboard's event stream (POST dashboard/events/ticket). */
export async function getDashboardEventsTicket(): Promise<string> {
  return (await api('POST', '/dashboard/events/ticket', { struct: EventTicketStruct })).ticket;
}
