import * as operations from '@/domain/contract/events.ts';
import { call } from '@/lib/api-client.ts';

/** A 60-second ticket that opens the staff dashboard's event stream (POST dashboard/events/ticket). */
export async function getDashboardEventsTicket(): Promise<string> {
  return (await call(operations.dashboardEventsTicket)).ticket;
}
