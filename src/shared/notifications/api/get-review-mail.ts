import { ReviewMailPreferencesStruct } from '@/domain/contract/review-mail.ts';
import { api } from '@/lib/api-client.ts';

export function getReviewMail() {
  return api('GET', '/me/review-mail', { struct: ReviewMailPreferencesStruct });
}
