import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function setReviewPeriod(id: number, reviewPeriod: number) {
  return call(operations.setReviewPeriod, { params: { id }, body: { reviewPeriod } });
}
