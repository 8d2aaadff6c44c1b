import { useAtomValue } from '@/lib/state.ts';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { CreditDetail, StaffOrganization } from '@/domain/contract/customers.ts';
import { optionalLinkRule, parseReviewPeriod, reviewPeriodRule, trackingCodeRule, isOnboardingComplete } from '@/domain/organization-rules.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { isSubscriptionActive, type SubscriptionStatus } from '@/domain/subscription.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { formatDate, fullName } from '@/lib/format.ts';
import { meAtom } from '@/lib/session-state.ts';
import { Badge } from '@/ui/badge.tsx';
import { EditableField } from '@/ui/editable-field.tsx';
import { EmptyState, PageHeader } from '@/ui/empty-state.tsx';
import { getCredits } from '@/shared/organization/api/get-credits.ts';
import { getOrganization } from './api/get-organization.ts';
import { updateOrganization, type OrganizationField } from './api/update-organization.ts';
import { CreditsPanel } from './components/credits-panel.tsx';
import { Report } from './components/report.tsx';
import { SubscriptionPanel } from './components/subscription-panel.tsx';
import { UsersPager } from './components/users-pager.tsx';

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
  const [organization, setOrganization] = useState<StaffOrganization | null>(null);
  const [credits, setCredits] = useState<CreditDetail | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    let live = true;
    setOrganization(null);
    Promise.all([getOrganization(id), getCredits(id)])
      .then(([o, c]) => {
        if (!live) return;
        setOrganization(o);
        setCredits(c);
      })
      .catch((e: unknown) => {
        console.error('organization failed to load', e);
        if (live) setMissing(true);
      });
    return () => {
      live = false;
    };
  }, [id]);

  if (missing) {
    return (
      <EmptyState title="This organization does not exist" icon="building">
        It may have been deleted. <Link href="/customers">Back to customers</Link>
      </EmptyState>
    );
  }
  if (!organization || !credits) return <span className="spinner" role="status" aria-label="Loading" />;

  const save = async (field: OrganizationField, name: 'assetsLink' | 'trackingCode' | 'projectReviewPeriod') => {
    try {
      const saved = await updateOrganization(id, field);
      setOrganization((o) => (o ? { ...o, assetsLink: saved.assetsLink, trackingCode: saved.trackingCode, projectReviewPeriod: saved.projectReviewPeriod } : o));
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
            <Badge tone={isOnboardingComplete(organization.statusId) ? 'success' : 'info'}>{isOnboardingComplete(organization.statusId) ? 'Onboarded' : 'Onboarding'}</Badge>
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
            onSaved={(saved) => {
              setCredits(saved);
              setOrganization((o) => (o ? { ...o, storage: saved.storage, activeCredits: saved.activeCredits, endDate: saved.endDate } : o));
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
