import type { SubscriptionStatus } from '@/domain/subscription.ts';
import { Badge } from '@/ui/badge.tsx';

const TONE = { active: 'success', canceled: 'warning', inactive: 'neutral' } as const;

export function SubscriptionBadge({ status }: { status: SubscriptionStatus }) {
  return <Badge tone={TONE[status]}>{status}</Badge>;
}
