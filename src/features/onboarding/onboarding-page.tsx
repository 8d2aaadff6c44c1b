import { useCallback, useEffect, useState } from 'react';
import { ORGANIZATIONS_PAGE_SIZE, type OrganizationRow } from '@/domain/contract/customers.ts';
import { TRIAL_USERS_LIMIT, type TrialUser } from '@/domain/contract/users.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { MoreButton } from '@/ui/data-table.tsx';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { listOnboarding } from './api/list-onboarding.ts';
import { listTrialUsers } from './api/list-trial-users.ts';
import { updateOrganization } from './api/update-organization.ts';
import { OnboardingTable } from './components/onboarding-table.tsx';
import { TrialTable } from './components/trial-table.tsx';

type TabId = 'onboarding' | 'completed' | 'trial';
const TABS = [
  { id: 'onboarding' as const, label: 'Customers Onboarding' },
  { id: 'completed' as const, label: 'Completed Customers Onboarding' },
  { id: 'trial' as const, label: 'Trial Users' },
];

interface Paged<T> {
  rows: T[] | null;
  full: boolean;
  busy: boolean;
}
const empty = <T,>(): Paged<T> => ({ rows: null, full: false, busy: false });

/** A paged list with its own "get more" (A§2: each list has one). */
function usePaged<T extends { id: number }>(fetch: (start: number) => Promise<T[]>, pageSize: number) {
  const [state, setState] = useState<Paged<T>>(empty);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    async (more: boolean) => {
      setState((s) => ({ ...s, busy: true, ...(more ? {} : { rows: null }) }));
      try {
        const start = more ? (state.rows?.length ?? 0) : 0;
        const page = await fetch(start);
        setState((s) => ({ rows: more ? [...(s.rows ?? []), ...page.filter((p) => !s.rows?.some((r) => r.id === p.id))] : page, full: page.length === pageSize, busy: false }));
      } catch (e) {
        console.error('onboarding list failed to load', e);
        setError(errorMessage(e));
        setState((s) => ({ ...s, rows: s.rows ?? [], busy: false }));
      }
    },
    [fetch, pageSize, state.rows],
  );
  return { state, setState, load, error };
}

const fetchInProgress = (start: number) => listOnboarding(1, start);
const fetchCompleted = (start: number) => listOnboarding(2, start);

/** /onboarding (A§2): customers being onboarded, completed onboardings (greyed) and trial users. */
export function OnboardingPage() {
  const [tab, setTab] = useState<TabId>('onboarding');
  const inProgress = usePaged<OrganizationRow>(fetchInProgress, ORGANIZATIONS_PAGE_SIZE);
  const completed = usePaged<OrganizationRow>(fetchCompleted, ORGANIZATIONS_PAGE_SIZE);
  const trial = usePaged<TrialUser>(listTrialUsers, TRIAL_USERS_LIMIT);
  const [completing, setCompleting] = useState<OrganizationRow | null>(null);
  const current = tab === 'onboarding' ? inProgress : tab === 'completed' ? completed : trial;

  // Each tab loads when first opened and again after a Complete moved a row between tabs.
  useEffect(() => {
    if (current.state.rows === null && !current.state.busy) void current.load(false);
  }, [current]);

  const replaceRow = (list: typeof inProgress) => (row: OrganizationRow) => list.setState((s) => ({ ...s, rows: s.rows?.map((r) => (r.id === row.id ? row : r)) ?? null }));

  return (
    <>
      <PageHeader title="Onboarding" subtitle="Set up new customers: assets folder, starter kit and its tracking id." />
      <Tabs label="Onboarding lists" tabs={TABS} active={tab} onChange={setTab} />
      {current.error && (
        <div className="form-error" role="alert">
          {current.error}
        </div>
      )}
      <div className="table-card" role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
        {tab === 'trial' ? (
          <TrialTable rows={trial.state.rows ?? []} loading={trial.state.rows === null} />
        ) : (
          <OnboardingTable
            rows={(tab === 'onboarding' ? inProgress : completed).state.rows ?? []}
            loading={(tab === 'onboarding' ? inProgress : completed).state.rows === null}
            completed={tab === 'completed'}
            onChanged={replaceRow(tab === 'onboarding' ? inProgress : completed)}
            onComplete={setCompleting}
          />
        )}
      </div>
      <MoreButton visible={current.state.full && current.state.rows !== null} busy={current.state.busy} onClick={() => void current.load(true)}>
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
              inProgress.setState((s) => ({ ...s, rows: s.rows?.filter((r) => r.id !== completing.id) ?? null }));
              completed.setState(empty);
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
