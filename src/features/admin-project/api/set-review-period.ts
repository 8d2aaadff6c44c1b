import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function setReviewPeriod(id: number, reviewPeriod: number) {
  return api('PUT', `/projects/${id}/review_period`, { body: { reviewPeriod }, struct: ProjectStruct });
}
