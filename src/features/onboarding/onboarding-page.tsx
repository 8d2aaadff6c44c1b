import { useState } from 'react';
import { ORGANIZATIONS_PAGE_SIZE, type OrganizationRow } from '@/domain/contract/customers.ts';
import { TRIAL_USERS_LIMIT, type TrialUser } from '@/domain/contract/users.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { MoreButton } from '@/ui/data-table.tsx';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { onboardingListKey } from './api/keys.ts';
import { listOnboarding } from './api/list-onboarding.ts';
import { listTrialUsers } from './api/list-trial-users.ts';
import { updateOrganization } from '@/shared/organization/api/update-organization.ts';
import { OnboardingTable } from './components/onboarding-table.tsx';
import { TrialTable } from './components/trial-table.tsx';
import { usePaged } from './use-paged.ts';

type TabId = 'onboarding' | 'completed' | 'trial';
const TABS = [
  { id: 'onboarding' as const, label: 'Customers Onboarding' },
  { id: 'completed' as const, label: 'Completed Customers Onboarding' },
  { id: 'trial' as const, label: 'Trial Users' },
];

type Pages = { pages: OrganizationRow[][]; pageParams: unknown[] };

const fetchInProgress = (start: number) => listOnboarding(1, start);
const fetchCompleted = (start: number) => listOnboarding(2, start);

/** /onboarding (A§2): customers being onboarded, completed onboardings (greyed) and trial users. */
export function OnboardingPage() {
  const [tab, setTab] = useState<TabId>('onboarding');
  const inProgress = usePaged<OrganizationRow>(onboardingListKey('in-progress'), fetchInProgress, ORGANIZATIONS_PAGE_SIZE, tab === 'onboarding');
  const completed = usePaged<OrganizationRow>(onboardingListKey('completed'), fetchCompleted, ORGANIZATIONS_PAGE_SIZE, tab === 'completed');
  const trial = usePaged<TrialUser>(onboardingListKey('trial'), listTrialUsers, TRIAL_USERS_LIMIT, tab === 'trial');
  const [completing, setCompleting] = useState<OrganizationRow | null>(null);
  const current = tab === 'onboarding' ? inProgress : tab === 'completed' ? completed : trial;
  const client = useQueryClient();

  const editRows = (list: 'in-progress' | 'completed', change: (rows: OrganizationRow[]) => OrganizationRow[]) =>
    client.setQueryData<Pages>(onboardingListKey(list), (data) => data && { ...data, pages: data.pages.map(change) });
  // The organization's own page and the customers list show what changed too.
  const organizationChanged = (id: number) => {
    void client.invalidateQueries({ queryKey: queryKeys.organization(id) });
    void client.invalidateQueries({ queryKey: queryKeys.staff('customers') });
  };
  const replaceRow = (list: 'in-progress' | 'completed') => (row: OrganizationRow) => {
    editRows(list, (rows) => rows.map((r) => (r.id === row.id ? row : r)));
    organizationChanged(row.id);
  };

  return (
    <>
      <PageHeader title="Onboarding" subtitle="Set up new customers: assets folder, starter kit and its tracking id." />
      <Tabs label="Onboarding lists" tabs={TABS} active={tab} onChange={setTab} />
      {current.error && (
        <div className="form-error" role="alert">
          {errorMessage(current.error)}
        </div>
      )}
      <div className="table-card" role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
        {tab === 'trial' ? (
          <TrialTable rows={trial.rows ?? []} loading={trial.rows === null} />
        ) : (
          <OnboardingTable
            rows={(tab === 'onboarding' ? inProgress : completed).rows ?? []}
            loading={(tab === 'onboarding' ? inProgress : completed).rows === null}
            completed={tab === 'completed'}
            onChanged={replaceRow(tab === 'onboarding' ? 'in-progress' : 'completed')}
            onComplete={setCompleting}
          />
        )}
      </div>
      <MoreButton visible={current.full && current.rows !== null} busy={current.busy} onClick={current.more}>
        {tab === 'trial' ? 'Get more trial users' : 'Get more customers'}
      </MoreButton>
      {completing && (
        <ConfirmModal
          title={`Complete the onboarding of ${completing.name}?`}
          confirmLabel="Complete"
          cancelLabel="Cancel"
          variant="success"
          onClose={() => setCompleting(null)}
          onConfirm={async () => {
            try {
              await updateOrganization(completing.id, { state: 'APPROVED' });
              const done = completing.id;
              editRows('in-progress', (rows) => rows.filter((r) => r.id !== done));
              // It moves to the completed list, which loads again when opened.
              void client.invalidateQueries({ queryKey: onboardingListKey('completed') });
              organizationChanged(done);
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>The organization moves to Completed Customers Onboarding.</p>
        </ConfirmModal>
      )}
    </>
  );
}
