import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { meAtom } from '@/lib/session-state.ts';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { ExpiringCredits } from './components/expiring-credits.tsx';
import { StaffUsers } from './components/staff-users.tsx';

const TABS = [
  { id: 'users' as const, label: 'Users' },
  { id: 'credits' as const, label: 'Credits' },
];

/** /admin-settings (A§2): staff users (limit 100) and a credits overview. */
export function AdminSettingsPage() {
  const me = useAtomValue(meAtom);
  const [tab, setTab] = useState<'users' | 'credits'>('users');
  if (!me) return null;
  return (
    <>
      <PageHeader title="Admin settings" subtitle="Staff users and credits across customers." />
      <Tabs label="Admin settings" tabs={TABS} active={tab} onChange={setTab} />
      <div role="tabpanel" aria-label={tab === 'users' ? 'Users' : 'Credits'}>
        {tab === 'users' ? <StaffUsers me={me} /> : <ExpiringCredits />}
      </div>
    </>
  );
}
