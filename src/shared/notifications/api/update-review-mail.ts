import * as operations from '@/domain/contract/review-mail.ts';
import type { ReviewMailPreferencesDto } from '@/domain/contract/review-mail.ts';
import { call } from '@/lib/api-client.ts';

export function updateReviewMail(changes: Partial<ReviewMailPreferencesDto>) {
  return call(operations.updateReviewMail, { body: changes });
}
