import type { Project } from '@/domain/contract/projects.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { EditableField } from '@/ui/editable-field.tsx';
import { setReviewPeriod } from '../api/set-review-period.ts';

const DAY_MS = 86_400_000;

/**
 * A§5: digits only, blank counts as 0; what is sent is 0, or the days already elapsed in the
 * review plus the days entered, so the field always shows days left.
 */
export function reviewPeriodToSend(entered: number, reviewStartedAt: string | null, now = Date.now()): number {
  if (entered === 0 || !reviewStartedAt) return entered;
  return Math.floor((now - new Date(reviewStartedAt).getTime()) / DAY_MS) + entered;
}

export function ReviewPeriodField({ project, onSaved }: { project: Project; onSaved: (p: Project) => void }) {
  return (
    <EditableField
      label="Review period (days left)"
      value={String(project.reviewDaysLeft)}
      inputMode="numeric"
      suffix="days"
      minSavingMs={1_000}
      validate={(text) => (/^\d*$/.test(text) ? undefined : 'Digits only.')}
      onSave={async (text) => {
        try {
          onSaved(await setReviewPeriod(project.id, reviewPeriodToSend(Number(text || 0), project.reviewStartedAt)));
        } catch (e) {
          return errorMessage(e);
        }
      }}
    />
  );
}
