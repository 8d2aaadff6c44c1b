import { useAtomValue } from '@/lib/state.ts';
import type { ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { decideRoute } from '@/domain/route-guard.ts';
import { AdminProjectPage } from '@/features/admin-project/admin-project-page.tsx';
import { AdminSettingsPage } from '@/features/admin-settings/admin-settings-page.tsx';
import { DashboardPage } from '@/features/dashboard/dashboard-page.tsx';
import { OrganizationProjects } from '@/features/dashboard/organization-projects.tsx';
import { ChangePasswordPage } from '@/features/auth/change-password-page.tsx';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { LoginUserPage } from '@/features/auth/login-user-page.tsx';
import { RecoverPasswordPage } from '@/features/auth/recover-password-page.tsx';
import { RegisterPage } from '@/features/auth/register-page.tsx';
import { CustomersPage } from '@/features/customers/customers-page.tsx';
import { EditorsPage } from '@/features/editors/editors-page.tsx';
import { HelpPage } from '@/features/misc/help-page.tsx';
import { NotFoundPage } from '@/features/misc/not-found-page.tsx';
import { NotMobilePage } from '@/features/misc/not-mobile-page.tsx';
import { ContentLibraryPage } from '@/features/library/content-library-page.tsx';
import { OnboardingPage } from '@/features/onboarding/onboarding-page.tsx';
import { OrganizationPage } from '@/features/organization/organization-page.tsx';
import { ProjectPage } from '@/features/project/project-page.tsx';
import { CreateProjectPage } from '@/features/projects/create-project-page.tsx';
import { ProjectsPage } from '@/features/projects/projects-page.tsx';
import { SettingsPage } from '@/features/settings/settings-page.tsx';
import { meAtom } from '@/lib/session-state.ts';
import { useIsMobile } from '@/ui/use-window-width.ts';
import { CustomerShell } from './shells/customer-shell.tsx';
import { StaffShell } from './shells/staff-shell.tsx';

const inCustomerShell = (page: ReactNode) => <CustomerShell>{page}</CustomerShell>;

/** Every route of C§2 and A§2 behind the one guard decision of src/domain/route-guard.ts. */
export function AppRoutes() {
  const [location] = useLocation();
  const me = useAtomValue(meAtom);
  const isMobile = useIsMobile();
  const decision = decideRoute(location, { role: me?.role.name ?? null, isMobile });
  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;

  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/login/user" component={LoginUserPage} />
      <Route path="/register" component={RegisterPage} />
      <Route path="/recover-password" component={RecoverPasswordPage} />
      <Route path="/change-password" component={ChangePasswordPage} />
      <Route path="/not-mobile" component={NotMobilePage} />
      <Route path="/help" component={HelpPage} />
      <Route path="/user/projects">{inCustomerShell(<ProjectsPage />)}</Route>
      <Route path="/user/create-project">{inCustomerShell(<CreateProjectPage />)}</Route>
      <Route path="/user/project/:id">{inCustomerShell(<ProjectPage />)}</Route>
      <Route path="/user/content-library">{inCustomerShell(<ContentLibraryPage />)}</Route>
      <Route path="/user/admin-settings">{inCustomerShell(<SettingsPage />)}</Route>
      <Route path="/customers">
        <StaffShell>
          <CustomersPage />
        </StaffShell>
      </Route>
      <Route path="/editors">
        <StaffShell>
          <EditorsPage />
        </StaffShell>
      </Route>
      <Route path="/onboarding">
        <StaffShell>
          <OnboardingPage />
        </StaffShell>
      </Route>
      <Route path="/admin-settings">
        <StaffShell>
          <AdminSettingsPage />
        </StaffShell>
      </Route>
      <Route path="/dashboard">
        <StaffShell>
          <DashboardPage />
        </StaffShell>
      </Route>
      <Route path="/project/:id">
        <StaffShell>
          <AdminProjectPage />
        </StaffShell>
      </Route>
      <Route path="/organization/:id">
        {(params) => (
          <StaffShell>
            <OrganizationPage key={params.id} id={Number(params.id)} renderProjects={(organizationId) => <OrganizationProjects organizationId={organizationId} />} />
          </StaffShell>
        )}
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}
