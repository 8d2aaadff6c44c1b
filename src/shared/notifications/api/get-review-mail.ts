import * as operations from '@/domain/contract/review-mail.ts';
import { call } from '@/lib/api-client.ts';

export function getReviewMail() {
  return call(operations.getReviewMail);
}
