import * as operations from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

export async function listVersions(projectId: number) {
  return (await call(operations.listVersions, { params: { id: projectId } })).versions;
}
