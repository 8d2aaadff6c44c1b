import { useAtomValue } from '@/lib/state.ts';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { StaffOrganizationStruct, type CreditDetail, type OrganizationFields, type StaffOrganization } from '@/domain/contract/customers.ts';
import { optionalLinkRule, parseReviewPeriod, reviewPeriodRule, trackingCodeRule, isOnboardingComplete } from '@/domain/organization-rules.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { isSubscriptionActive, type SubscriptionStatus } from '@/domain/subscription.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { formatDate, fullName } from '@/lib/format.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Badge } from '@/ui/badge.tsx';
import { EditableField } from '@/ui/editable-field.tsx';
import { EmptyState, PageHeader } from '@/ui/empty-state.tsx';
import { getCredits } from '@/shared/organization/api/get-credits.ts';
import { getOrganization } from '@/shared/organization/api/get-organization.ts';
import { organizationKeys } from './api/keys.ts';
import { updateOrganization, type OrganizationField } from '@/shared/organization/api/update-organization.ts';
import { CreditsPanel } from './components/credits-panel.tsx';
import { Report } from './components/report.tsx';
import { SubscriptionPanel } from './components/subscription-panel.tsx';
import { UsersPager } from './components/users-pager.tsx';
import { pathTo } from '@/domain/pages.ts';

const SUBSCRIPTION_TONE: Record<SubscriptionStatus, 'success' | 'warning' | 'neutral'> = { active: 'success', canceled: 'warning', inactive: 'neutral' };

interface Props {
  id: number;
  /**
   * SLOT for the organization's projects table (A§2: timer, title, organization, status, date,
   * feedback link, editor dropdown). The projects feature renders it; routes.tsx passes it in.
   */
  renderProjects?: (organizationId: number) => ReactNode;
}

/** /organization/{id} (A§2): report, review period, credits, subscription, users, assets link, tracking code and projects. */
export function OrganizationPage({ id, renderProjects }: Props) {
  const me = useAtomValue(meAtom);
  const canEdit = isManagerRole(me?.role.name);
  const client = useQueryClient();
  const organizationQuery = useQuery({ queryKey: organizationKeys.detail(id), queryFn: () => getOrganization(id, StaffOrganizationStruct) });
  const creditsQuery = useQuery({ queryKey: organizationKeys.credits(id), queryFn: () => getCredits(id) });
  const organization = organizationQuery.data ?? null;
  const credits = creditsQuery.data ?? null;
  // A page that never loaded says the organization is gone; a later failed refresh keeps what it shows.
  const missing = (organizationQuery.isError && !organization) || (creditsQuery.isError && !credits);
  const patchOrganization = (patch: Partial<StaffOrganization>) =>
    client.setQueryData<StaffOrganization>(organizationKeys.detail(id), (o) => (o ? { ...o, ...patch } : o));

  if (missing) {
    return (
      <EmptyState title="This organization does not exist" icon="building">
        It may have been deleted. <Link href={pathTo('customers')}>Back to customers</Link>
      </EmptyState>
    );
  }
  if (!organization || !credits) return <span className="spinner" role="status" aria-label="Loading" />;

  const save = async (field: OrganizationField, name: 'assetsLink' | 'trackingCode' | 'projectReviewPeriod') => {
    try {
      const saved: OrganizationFields = await updateOrganization(id, field);
      patchOrganization({ assetsLink: saved.assetsLink, trackingCode: saved.trackingCode, projectReviewPeriod: saved.projectReviewPeriod });
      // The customers and onboarding rows show these fields too.
      void client.invalidateQueries({ queryKey: queryKeys.staff('customers') });
      void client.invalidateQueries({ queryKey: queryKeys.staff('onboarding') });
    } catch (e) {
      return fieldError(e, name);
    }
  };
  const subscriptionActive = isSubscriptionActive(organization.renewableAt, organization.isCancelled);

  return (
    <div className="organization-page">
      <PageHeader
        title={organization.name}
        subtitle={`Customer since ${formatDate(organization.createdAt)}${organization.owner ? ` · Owner ${fullName(organization.owner)} (${organization.owner.email})` : ''}`}
        actions={
          <span className="header-badges">
            <Badge tone={SUBSCRIPTION_TONE[organization.subscriptionStatus]} title="Subscription">
              Subscription {organization.subscriptionStatus}
            </Badge>
            <Badge tone={isOnboardingComplete(organization.statusId) ? 'success' : 'info'}>
              {isOnboardingComplete(organization.statusId) ? 'Onboarded' : 'Onboarding'}
            </Badge>
          </span>
        }
      />
      <Report organization={organization} />
      <div className="organization-grid">
        <div className="organization-main">
          <CreditsPanel
            organizationId={id}
            credits={credits}
            editable={canEdit}
            onSaved={(saved: CreditDetail) => {
              client.setQueryData(organizationKeys.credits(id), saved);
              patchOrganization({ storage: saved.storage, activeCredits: saved.activeCredits, endDate: saved.endDate });
              // Everything that shows its credits: this page's other parts, and the customers list with its expiry view.
              void client.invalidateQueries({ queryKey: queryKeys.organization(id) });
              void client.invalidateQueries({ queryKey: queryKeys.staff('customers') });
            }}
          />
          <SubscriptionPanel organization={organization} />
        </div>
        <div className="organization-side">
          <section className="card settings-card" aria-label="Organization settings">
            <h2>Settings</h2>
            <EditableField
              label="Default review period"
              suffix="days"
              inputMode="numeric"
              value={String(organization.projectReviewPeriod)}
              disabled={!canEdit}
              validate={reviewPeriodRule}
              onSave={(value) => save({ projectReviewPeriod: parseReviewPeriod(value) }, 'projectReviewPeriod')}
            />
            <EditableField
              label="Organization assets link"
              placeholder="https://…"
              value={organization.assetsLink}
              disabled={!canEdit}
              validate={optionalLinkRule}
              onSave={(value) => save({ assetsLink: value || null }, 'assetsLink')}
            />
            <EditableField
              label="Tracking code"
              placeholder={subscriptionActive ? 'Carrier tracking code' : ''}
              value={organization.trackingCode}
              disabled={!canEdit || !subscriptionActive}
              disabledHint={subscriptionActive ? undefined : 'Available while the subscription is active.'}
              validate={trackingCodeRule}
              onSave={(value) => save({ trackingCode: value || null }, 'trackingCode')}
            />
          </section>
          <UsersPager organizationId={id} total={organization.usersCount} />
        </div>
      </div>
      <section className="section organization-projects" aria-label="Projects">
        {renderProjects ? (
          renderProjects(id)
        ) : (
          // SLOT: the projects table of this organization (filled by the projects feature).
          <EmptyState title="Projects" icon="film">
            The projects of {organization.name} appear here.
          </EmptyState>
        )}
      </section>
    </div>
  );
}
