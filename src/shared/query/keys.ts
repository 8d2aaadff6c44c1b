/**
 * The query keys more than one feature reads or changes (TanStack Query matches by prefix:
 * invalidating `organization(7)` refreshes its projects too). A key only one feature uses lives
 * beside that feature's API calls.
 */
export const queryKeys = {
  /** The organization (name, credits, storage): the customer top bar, Admin Settings, the staff organization page. */
  organization: (id: number) => ['organization', id] as const,
  /** The organization as its own members read it (the top bar, the send check, Admin Settings): one query for all. */
  customerOrganization: (id: number) => ['organization', id, 'customer'] as const,
  /** The organization's projects: the board sections, the content library, the staff organization page. */
  organizationProjects: (id: number) => ['organization', id, 'projects'] as const,
  /** One project as its page shows it (customer and staff). */
  project: (id: number) => ['project', id] as const,
  /** A project's uploaded files. */
  projectAssets: (id: number) => ['project', id, 'assets'] as const,
  /** The organization's users (customer Admin Settings, staff organization page). */
  organizationUsers: (id: number) => ['organization', id, 'users'] as const,
  /** The organization's credits and subscriptions (customer Subscription tab, staff organization page). */
  organizationBilling: (id: number) => ['organization', id, 'billing'] as const,
  /** The public plans (pricing page, Subscription tab); staff plan edits invalidate it. */
  paymentPlans: () => ['payment-plans'] as const,
  /** The staff dashboard, every tab and page. */
  dashboard: () => ['dashboard'] as const,
  /** Staff lists: customers, editors, onboarding, staff users. */
  staff: (list: 'customers' | 'editors' | 'onboarding' | 'staff-users' | 'plans' | 'coupons') => ['staff', list] as const,
};
