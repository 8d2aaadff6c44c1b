import { USER_MESSAGES } from '@/domain/user-management.ts';
import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { CreditDetail } from '@/domain/contract/customers.ts';
import type { Organization } from '@/domain/contract/organizations.ts';
import type { User } from '@/domain/contract/users.ts';
import { CREDIT_MESSAGES } from '@/domain/messages.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { meAtom } from '@/lib/session-state.ts';
import { loadMe, loadTopBarInfo } from '@/lib/session.ts';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { getCredits } from '@/shared/organization/api/get-credits.ts';
import { getOrganization } from './api/get-organization.ts';
import { listUsers } from './api/list-users.ts';
import { CreditsCard } from './components/credits-card.tsx';
import { SubscriptionTab } from './components/subscription-tab.tsx';
import { UserFormModal } from './components/user-form-modal.tsx';
import { UsersCard } from './components/users-card.tsx';

type TabId = 'users' | 'subscription';

/** /user/admin-settings (C§2): the owner sees every tab, other users only the first (users and credits). */
export function SettingsPage() {
  const me = useAtomValue(meAtom);
  const organizationId = me?.organizationId ?? null;
  const isOwner = me?.role.name === 'OWNER';
  // ?tab=subscription opens the Subscription tab; &plan=<id> chooses a plan (the pricing page links so).
  const search = new URLSearchParams(useSearch());
  const [tab, setTab] = useState<TabId>(search.get('tab') === 'subscription' ? 'subscription' : 'users');
  const [initialPlanId] = useState(() => (/^\d+$/.test(search.get('plan') ?? '') ? Number(search.get('plan')) : null));
  const [users, setUsers] = useState<User[] | null>(null);
  const [credits, setCredits] = useState<CreditDetail | null>(null);
  const [organization, setOrganization] = useState<Organization | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<User | 'new' | null>(null);

  const reload = useCallback(async () => {
    if (!organizationId) return;
    try {
      const [u, c, o] = await Promise.all([listUsers(organizationId), getCredits(organizationId), getOrganization(organizationId)]);
      setUsers(u);
      setCredits(c);
      setOrganization(o);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [organizationId]);
  useEffect(() => void reload(), [reload]);

  if (!me || !organizationId) return null;
  const tabs = isOwner
    ? [
        { id: 'users' as const, label: 'Users & credits' },
        { id: 'subscription' as const, label: 'Subscription' },
      ]
    : [{ id: 'users' as const, label: 'Users & credits' }];
  const active = isOwner ? tab : 'users';

  return (
    <>
      <PageHeader title="Admin Settings" subtitle={`${isOwner ? 'Users, credits and subscription' : 'Users and credits'} of ${me.organizationName ?? 'your organization'}.`} />
      <Tabs label="Settings" tabs={tabs} active={active} onChange={setTab} />
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {active === 'users' ? (
        <div className="settings-grid settings-main" role="tabpanel" aria-label="Users & credits">
          <UsersCard users={users} meId={me.id} canManage={isOwner && me.impersonatedBy === null} readOnlyReason={isOwner && me.impersonatedBy !== null ? USER_MESSAGES.impersonating : undefined} onAdd={() => setEditing('new')} onEdit={setEditing} onChanged={() => void reload()} />
          <div className="settings-side">
            <CreditsCard credits={credits} />
            {!isOwner && credits?.status === 'INACTIVE' && <p className="side-note">{CREDIT_MESSAGES.userContactOwner}</p>}
          </div>
        </div>
      ) : (
        <div role="tabpanel" aria-label="Subscription">
          <SubscriptionTab
            organization={organization}
            credits={credits}
            owner={{ name: me.name, email: me.email }}
            readOnly={me.impersonatedBy !== null}
            initialPlanId={initialPlanId}
            onChanged={() => {
              void reload();
              // The top bar shows the new credits (ACTIVE after a purchase).
              void loadTopBarInfo(me);
            }}
          />
        </div>
      )}
      {editing && (
        <UserFormModal
          organizationId={organizationId}
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            void reload();
            // Editing oneself changes the name in the top bar.
            if (saved.id === me.id) void loadMe().then(loadTopBarInfo);
          }}
        />
      )}
    </>
  );
}
