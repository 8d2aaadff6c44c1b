import type { Project } from '@/domain/contract/projects.ts';
import { reviewDaysLeftRule, reviewPeriodToSend } from '@/domain/review-window.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { EditableField } from '@/ui/editable-field.tsx';
import { setReviewPeriod } from '../api/set-review-period.ts';

/**
 * A§5: staff edit the days left (digits only, blank counts as 0); what is sent is 0, or the
 * days already elapsed in the review plus the days entered (src/domain/review-window.ts).
 */
export function ReviewPeriodField({ project, onSaved }: { project: Project; onSaved: (p: Project) => void }) {
  return (
    <EditableField
      label="Review period (days left)"
      value={String(project.reviewDaysLeft)}
      inputMode="numeric"
      suffix="days"
      minSavingMs={1_000}
      validate={(text) => reviewDaysLeftRule(text, project.reviewStartedAt)}
      onSave={async (text) => {
        try {
          onSaved(await setReviewPeriod(project.id, reviewPeriodToSend(Number(text.trim() || 0), project.reviewStartedAt)));
        } catch (e) {
          return errorMessage(e);
        }
      }}
    />
  );
}
