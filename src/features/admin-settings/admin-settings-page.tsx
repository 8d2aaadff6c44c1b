import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { meAtom } from '@/lib/session-state.ts';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { ReviewMailCard } from '@/shared/notifications/review-mail-card.tsx';
import { ExpiringCredits } from './components/expiring-credits.tsx';
import { HolidayCalendar } from './components/holiday-calendar.tsx';
import { ImpersonationTrail } from './components/impersonation-trail.tsx';
import { PlansAndCoupons } from './components/plans-coupons.tsx';
import { StaffUsers } from './components/staff-users.tsx';

const TABS = [
  { id: 'users' as const, label: 'Users' },
  { id: 'credits' as const, label: 'Credits' },
  { id: 'billing' as const, label: 'Plans & coupons' },
  // Issue 36 item 11: staff see the holidays; a superadmin edits them (the server refuses anyone else).
  { id: 'holidays' as const, label: 'Holidays' },
  { id: 'mail' as const, label: 'My e-mails' },
];
/** Issue 36 item 10: the Log In As trail, a superadmin's only (the server refuses anyone else). */
const TRAIL_TAB = { id: 'trail' as const, label: 'Log In As trail' };
type TabId = (typeof TABS)[number]['id'] | typeof TRAIL_TAB.id;

/** /admin-settings (A§2): staff users (limit 100), a credits overview, and the plans and coupons customers buy with. */
export function AdminSettingsPage() {
  const me = useAtomValue(meAtom);
  const [tab, setTab] = useState<TabId>('users');
  if (!me) return null;
  const tabs = me.role.name === 'SUPERADMIN' ? [...TABS, TRAIL_TAB] : TABS;
  return (
    <>
      <PageHeader title="Admin settings" subtitle="Staff users, credits across customers, plans and coupons." />
      <Tabs label="Admin settings" tabs={tabs} active={tab} onChange={setTab} />
      <div role="tabpanel" aria-label={tabs.find((t) => t.id === tab)?.label}>
        {tab === 'users' ? (
          <StaffUsers me={me} />
        ) : tab === 'credits' ? (
          <ExpiringCredits />
        ) : tab === 'billing' ? (
          <PlansAndCoupons />
        ) : tab === 'holidays' ? (
          <HolidayCalendar canEdit={me.role.name === 'SUPERADMIN'} />
        ) : tab === 'trail' ? (
          <ImpersonationTrail />
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
