import { USER_MESSAGES } from '@/domain/user-management.ts';
import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { useSearch } from 'wouter';
import type { User } from '@/domain/contract/users.ts';
import { CREDIT_MESSAGES } from '@/domain/messages.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { meAtom } from '@/lib/session-state.ts';
import { loadMe } from '@/lib/session.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { getCredits } from '@/shared/organization/api/get-credits.ts';
import { ReviewMailCard } from '@/shared/notifications/review-mail-card.tsx';
import { useCustomerOrganization } from '@/shared/organization/top-bar-info.ts';
import { settingsKeys } from './api/keys.ts';
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
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const client = useQueryClient();
  const enabled = organizationId !== null;
  const id = organizationId ?? 0;
  const usersQuery = useQuery({ queryKey: settingsKeys.users(id), queryFn: () => listUsers(id), enabled });
  const creditsQuery = useQuery({ queryKey: settingsKeys.credits(id), queryFn: () => getCredits(id), enabled });
  const organizationQuery = useCustomerOrganization(enabled);
  const users = usersQuery.data ?? null;
  const credits = creditsQuery.data ?? null;
  const organization = organizationQuery.data ?? null;
  const failed = usersQuery.error ?? creditsQuery.error ?? organizationQuery.error;
  const error = failed ? errorMessage(failed) : null;
  const refreshUsers = () => void client.invalidateQueries({ queryKey: queryKeys.organizationUsers(id) });
  // Credits, storage, subscriptions and the top bar all hang on the organization.
  const refreshOrganization = () => client.invalidateQueries({ queryKey: queryKeys.organization(id) });

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
      <PageHeader
        title="Admin Settings"
        subtitle={`${isOwner ? 'Users, credits and subscription' : 'Users and credits'} of ${me.organizationName ?? 'your organization'}.`}
      />
      <Tabs label="Settings" tabs={tabs} active={active} onChange={setTab} />
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {active === 'users' ? (
        <div className="settings-grid settings-main" role="tabpanel" aria-label="Users & credits">
          <UsersCard
            users={users}
            meId={me.id}
            canManage={isOwner && me.impersonatedBy === null}
            readOnlyReason={isOwner && me.impersonatedBy !== null ? USER_MESSAGES.impersonating : undefined}
            onAdd={() => setEditing('new')}
            onEdit={setEditing}
            onChanged={refreshUsers}
          />
          <div className="settings-side">
            <CreditsCard credits={credits} />
            <ReviewMailCard role={me.role.name} />
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
            // The top bar shows the new credits too (ACTIVE after a purchase).
            onChanged={() => void refreshOrganization()}
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
            refreshUsers();
            // Editing oneself changes the name in the top bar: the session learns it first.
            if (saved.id === me.id) void loadMe().then(refreshOrganization);
          }}
        />
      )}
    </>
  );
}
