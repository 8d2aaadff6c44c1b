import { lazy, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { PAGES } from '@/domain/pages.ts';
import { AdminSettingsPage } from '@/features/admin-settings/admin-settings-page.tsx';
import { CustomersPage } from '@/features/customers/customers-page.tsx';
import { DashboardPage } from '@/features/dashboard/dashboard-page.tsx';
import { OrganizationProjects } from '@/features/dashboard/organization-projects.tsx';
import { EditorsPage } from '@/features/editors/editors-page.tsx';
import { OnboardingPage } from '@/features/onboarding/onboarding-page.tsx';
import { OrganizationPage } from '@/features/organization/organization-page.tsx';
import { LazyPage } from './lazy-page.tsx';
import { StaffShell } from './shells/staff-shell.tsx';

// The project page of the staff (player, zips, links) has a chunk of its own.
const AdminProjectPage = lazy(() => import('@/features/admin-project/admin-project-page.tsx').then((m) => ({ default: m.AdminProjectPage })));

const inShell = (page: ReactNode) => (
  <StaffShell>
    <LazyPage>{page}</LazyPage>
  </StaffShell>
);

/**
 * The staff portal (A§2), loaded as one chunk when staff open one of its pages: a customer
 * never downloads it.
 */
export default function StaffPortal() {
  return (
    <Switch>
      <Route path={PAGES.customers.path}>{inShell(<CustomersPage />)}</Route>
      <Route path={PAGES.editors.path}>{inShell(<EditorsPage />)}</Route>
      <Route path={PAGES.onboarding.path}>{inShell(<OnboardingPage />)}</Route>
      <Route path={PAGES.adminSettings.path}>{inShell(<AdminSettingsPage />)}</Route>
      <Route path={PAGES.dashboard.path}>{inShell(<DashboardPage />)}</Route>
      <Route path={PAGES.staffProject.path}>{inShell(<AdminProjectPage />)}</Route>
      <Route path={PAGES.organization.path}>
        {(params) =>
          inShell(
            <OrganizationPage
              key={params.id}
              id={Number(params.id)}
              renderProjects={(organizationId) => <OrganizationProjects organizationId={organizationId} />}
            />,
          )
        }
      </Route>
    </Switch>
  );
}
