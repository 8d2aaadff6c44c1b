import { ReviewMailPreferencesStruct, type ReviewMailPreferencesDto } from '@/domain/contract/review-mail.ts';
import { api } from '@/lib/api-client.ts';

export function updateReviewMail(changes: Partial<ReviewMailPreferencesDto>) {
  return api('PATCH', '/me/review-mail', { body: changes, struct: ReviewMailPreferencesStruct });
}
