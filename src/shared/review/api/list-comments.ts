import * as operations from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

export function listComments(projectId: number, version: number) {
  return call(operations.listComments, { params: { id: projectId }, query: { version } });
}
