import { lazy, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { PAGES } from '@/domain/pages.ts';
import { ContentLibraryPage } from '@/features/library/content-library-page.tsx';
import { CreateProjectPage } from '@/features/projects/create-project-page.tsx';
import { ProjectsPage } from '@/features/projects/projects-page.tsx';
import { LazyPage } from './lazy-page.tsx';
import { CustomerShell } from './shells/customer-shell.tsx';

// The heavy screens have chunks of their own: the project page (uploads, player, downloads),
// the plans page and the settings with the Stripe checkout.
const ProjectPage = lazy(() => import('@/features/project/project-page.tsx').then((m) => ({ default: m.ProjectPage })));
const PricingPage = lazy(() => import('@/features/pricing/pricing-page.tsx').then((m) => ({ default: m.PricingPage })));
const SettingsPage = lazy(() => import('@/features/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })));

const inShell = (page: ReactNode) => (
  <CustomerShell>
    <LazyPage>{page}</LazyPage>
  </CustomerShell>
);

/**
 * The customer portal (C§2), loaded as one chunk when a customer opens one of its pages; the
 * route guard has already decided the visitor may be here.
 */
export default function CustomerPortal() {
  return (
    <Switch>
      <Route path={PAGES.pricing.path}>{inShell(<PricingPage />)}</Route>
      <Route path={PAGES.projects.path}>{inShell(<ProjectsPage />)}</Route>
      <Route path={PAGES.createProject.path}>{inShell(<CreateProjectPage />)}</Route>
      <Route path={PAGES.project.path}>{inShell(<ProjectPage />)}</Route>
      <Route path={PAGES.contentLibrary.path}>{inShell(<ContentLibraryPage />)}</Route>
      <Route path={PAGES.settings.path}>{inShell(<SettingsPage />)}</Route>
    </Switch>
  );
}
