import { slaTimer, type SlaInput } from '@/domain/sla-timer.ts';
import { useNow } from './use-now.ts';

/** The 48-business-hour timer as HH:MM, red when overdue, refreshed every `refreshMs`. */
export function SlaBadge({ project, refreshMs, label }: { project: SlaInput; refreshMs: number; label?: string }) {
  const now = useNow(refreshMs);
  const timer = slaTimer(project, now);
  return (
    <span className={`sla ${timer.overdue ? "sla-overdue" : ""} ${timer.running ? "sla-running" : ""}`} data-testid="sla-timer" data-running={timer.running} title="Business hours left of the 48-hour delivery window">
      {label && <span className="sla-label">{label}</span>}
      {timer.text}
    </span>
  );
}
