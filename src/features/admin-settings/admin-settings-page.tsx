import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { meAtom } from '@/lib/session-state.ts';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { ReviewMailCard } from '@/shared/notifications/review-mail-card.tsx';
import { ExpiringCredits } from './components/expiring-credits.tsx';
import { PlansAndCoupons } from './components/plans-coupons.tsx';
import { StaffUsers } from './components/staff-users.tsx';

const TABS = [
  { id: 'users' as const, label: 'Users' },
  { id: 'credits' as const, label: 'Credits' },
  { id: 'billing' as const, label: 'Plans & coupons' },
  { id: 'mail' as const, label: 'My e-mails' },
];

/** /admin-settings (A§2): staff users (limit 100), a credits overview, and the plans and coupons customers buy with. */
export function AdminSettingsPage() {
  const me = useAtomValue(meAtom);
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('users');
  if (!me) return null;
  return (
    <>
      <PageHeader title="Admin settings" subtitle="Staff users, credits across customers, plans and coupons." />
      <Tabs label="Admin settings" tabs={TABS} active={tab} onChange={setTab} />
      <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
        {tab === 'users' ? (
          <StaffUsers me={me} />
        ) : tab === 'credits' ? (
          <ExpiringCredits />
        ) : tab === 'billing' ? (
          <PlansAndCoupons />
        ) : (
          // Issue 13: the signed-in staff member's own review e-mails.
          <div className="review-mail-staff">
            <ReviewMailCard role={me.role.name} />
          </div>
        )}
      </div>
    </>
  );
}
