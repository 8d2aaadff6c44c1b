import { useState } from 'react';
import { Link } from 'wouter';
import { businessDate, businessToday } from '@/domain/business-calendar.ts';
import type { TrialUser } from '@/domain/contract/users.ts';
import { daysBetween } from '@/domain/subscription.ts';
import { formatDate, fullName, plural } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { Icon } from '@/ui/icons.tsx';
import { pathTo } from '@/domain/pages.ts';

function CopyLink({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <a href={link} target="_blank" rel="noreferrer" title={link}>
        {link.replace(/^https?:\/\//, '')}
      </a>
      <button
        type="button"
        className="icon-button icon-button-sm"
        aria-label="Copy link"
        onClick={() => {
          void navigator.clipboard?.writeText(link).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1000);
          });
        }}
      >
        <Icon name={copied ? 'check' : 'copy'} size={15} />
      </button>
    </span>
  );
}

/** A§2 onboarding tab 2: trial users with their trial's end and their own registration link (sign-in with their e-mail, then the plans). */
export function TrialTable({ rows, loading }: { rows: TrialUser[]; loading: boolean }) {
  const today = businessToday();
  const columns: Column<TrialUser>[] = [
    {
      key: 'organization',
      header: 'Organization',
      cell: (t) => (
        <Link href={pathTo('organization', { id: t.organizationId })} className="strong-link">
          {t.organizationName}
        </Link>
      ),
    },
    { key: 'email', header: 'Email', cell: (t) => t.email },
    { key: 'name', header: 'Name', cell: (t) => fullName(t) },
    {
      key: 'expiration',
      header: 'Expiration',
      cell: (t) => {
        const left = daysBetween(today, businessDate(t.codeExpiration));
        return (
          <span className="expiry-cell">
            {formatDate(businessDate(t.codeExpiration))}
            {left < 0 ? (
              <Badge tone="danger">Expired</Badge>
            ) : (
              <Badge tone={left < 4 ? 'warning' : 'info'}>{left === 0 ? 'Ends today' : `${plural(left, 'day')} left`}</Badge>
            )}
          </span>
        );
      },
    },
    { key: 'link', header: 'Registration link', cell: (t) => <CopyLink link={t.link} /> },
  ];
  return <DataTable label="Trial users" columns={columns} rows={rows} rowKey={(t) => t.id} loading={loading} empty="No trial users right now." />;
}
