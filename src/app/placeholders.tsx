import { PlaceholderPage } from '@/ui/placeholder-page.tsx';

/** Pages whose issues have not landed: each says what will be there. */
export const PLACEHOLDERS = {
  '/user/admin-settings': { title: 'Admin Settings', subtitle: "Your organization's users and credits.", emptyTitle: 'Users and credits', icon: 'gear', body: 'Inviting users and the credits overview open here with the customer-portal release.' },
  '/customers': { title: 'Customers', subtitle: 'Organizations, owners, credits and expiry.', emptyTitle: 'No customers to show yet', icon: 'users', body: 'The customer list arrives with the staff-portal release.' },
  '/editors': { title: 'Editors', subtitle: 'Your editing team.', emptyTitle: 'No editors to show yet', icon: 'scissors', body: 'Managing editors arrives with the staff-portal release.' },
  '/onboarding': { title: 'Onboarding', subtitle: 'Customers being set up, completed onboardings and trial users.', emptyTitle: 'Nothing to onboard yet', icon: 'rocket', body: 'Onboarding lists arrive with the staff-portal release.' },
  '/admin-settings': { title: 'Admin settings', subtitle: 'Staff users and credits.', emptyTitle: 'Nothing to show yet', icon: 'gear', body: 'Staff settings arrive with the staff-portal release.' },
  organization: { title: 'Organization', subtitle: 'Report, credits, users and projects.', emptyTitle: 'Organization details open here', icon: 'building', body: 'The organization page arrives with the staff-portal release.' },
} as const;

export function Placeholder({ page }: { page: keyof typeof PLACEHOLDERS }) {
  const { body, ...props } = PLACEHOLDERS[page];
  return <PlaceholderPage {...props}>{body}</PlaceholderPage>;
}
