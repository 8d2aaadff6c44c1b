import { useAtomValue } from '@/lib/state.ts';
import { lazy } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { PAGES, portalPattern } from '@/domain/pages.ts';
import { decideRoute } from '@/domain/route-guard.ts';
import { isCustomerRole } from '@/domain/roles.ts';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { LoginUserPage } from '@/features/auth/login-user-page.tsx';
import { NotFoundPage } from '@/features/misc/not-found-page.tsx';
import { NotMobilePage } from '@/features/misc/not-mobile-page.tsx';
import { withReturnPath } from '@/lib/return-path.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useIsMobile } from '@/ui/use-window-width.ts';
import { LazyPage } from './lazy-page.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { useDocumentTitle } from './use-document-title.ts';

// The first load carries the sign-in pages only (issue 12 "First load"). Each portal is one
// chunk loaded when its first page opens, so a customer never downloads the staff pages and
// staff never the customer's; the heavy screens inside them load lazily again (see the portals).
const CustomerPortal = lazy(() => import('./customer-portal.tsx'));
const StaffPortal = lazy(() => import('./staff-portal.tsx'));
const RegisterPage = lazy(() => import('@/features/auth/register-page.tsx').then((m) => ({ default: m.RegisterPage })));
const RecoverPasswordPage = lazy(() => import('@/features/auth/recover-password-page.tsx').then((m) => ({ default: m.RecoverPasswordPage })));
const ChangePasswordPage = lazy(() => import('@/features/auth/change-password-page.tsx').then((m) => ({ default: m.ChangePasswordPage })));
const HelpPage = lazy(() => import('@/features/misc/help-page.tsx').then((m) => ({ default: m.HelpPage })));
const GuestReviewPage = lazy(() => import('@/features/guest-review/guest-review-page.tsx').then((m) => ({ default: m.GuestReviewPage })));
const PricingPage = lazy(() => import('@/features/pricing/pricing-page.tsx').then((m) => ({ default: m.PricingPage })));

/** Each portal's pages (its own Switch tells them apart). One pattern: the portal stays mounted between its pages. */
const CUSTOMER_PAGES = portalPattern('customer');
const STAFF_PAGES = portalPattern('staff');

/** Every route of C§2 and A§2 behind the one guard decision of src/domain/route-guard.ts. */
export function AppRoutes() {
  const [location] = useLocation();
  const search = useSearch();
  const me = useAtomValue(meAtom);
  const isMobile = useIsMobile();
  const decision = decideRoute(location, {
    role: me?.role.name ?? null,
    isMobile,
    withoutOrganization: Boolean(me && isCustomerRole(me.role.name) && me.organizationId === null),
  });
  useDocumentTitle(location);
  // A signed-out visitor goes to sign in with the page asked for as `next` (a bookmark, a link in an e-mail).
  // Keyed by its target: wouter's Redirect navigates once, when it mounts, so a redirect that
  // leads to another (a signed-out deep link → sign in → the narrow-window notice) needs a new one,
  // or the page stays blank (issue 36).
  if (decision.kind === 'redirect') {
    const target = withReturnPath(decision.to, search ? `${location}?${search}` : location);
    return <Redirect key={target} to={target} replace />;
  }

  const customerPortal = (
    <LazyPage>
      <CustomerPortal />
    </LazyPage>
  );
  const staffPortal = (
    <LazyPage>
      <StaffPortal />
    </LazyPage>
  );
  // The pages outside a LazyPage (sign-in, not-mobile, 404) have their boundary here; the
  // portals' pages have theirs inside the shell, so the top bar and menu stay usable.
  return (
    <RouteErrorBoundary>
      <Switch>
        <Route path={PAGES.staffSignIn.path} component={LoginPage} />
        <Route path={PAGES.customerSignIn.path} component={LoginUserPage} />
        <Route path={PAGES.register.path}>
          <LazyPage>
            <RegisterPage />
          </LazyPage>
        </Route>
        <Route path={PAGES.recoverPassword.path}>
          <LazyPage>
            <RecoverPasswordPage />
          </LazyPage>
        </Route>
        <Route path={PAGES.changePassword.path}>
          <LazyPage>
            <ChangePasswordPage />
          </LazyPage>
        </Route>
        <Route path={PAGES.notMobile.path} component={NotMobilePage} />
        <Route path={PAGES.help.path}>
          <LazyPage>
            <HelpPage />
          </LazyPage>
        </Route>
        <Route path={PAGES.guestReview.path}>
          <LazyPage>
            <GuestReviewPage />
          </LazyPage>
        </Route>
        {/* Public plans page: a signed-in customer on a desktop sees it in the shell, anyone else standalone. */}
        <Route path={PAGES.pricing.path}>
          {isCustomerRole(me?.role.name) && !isMobile ? (
            customerPortal
          ) : (
            <LazyPage>
              <PricingPage standalone />
            </LazyPage>
          )}
        </Route>
        <Route path={CUSTOMER_PAGES}>{customerPortal}</Route>
        <Route path={STAFF_PAGES}>{staffPortal}</Route>
        <Route component={NotFoundPage} />
      </Switch>
    </RouteErrorBoundary>
  );
}
