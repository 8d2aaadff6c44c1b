import { businessToday } from '@/domain/business-calendar.ts';
import { expiryWarning } from '@/domain/subscription.ts';
import { formatDate, plural } from '@/lib/format.ts';
import { Icon } from '@/ui/icons.tsx';

/** "Credits expire on" with the A§2 warning when fewer than 91 days remain. */
export function ExpiryCell({ endDate }: { endDate: string | null }) {
  const warning = expiryWarning(endDate, businessToday());
  return (
    <span className="expiry-cell">
      {formatDate(endDate)}
      {warning && (
        <span className={`expiry-flag ${warning.expired ? 'is-expired' : ''}`} title={warning.expired ? 'The credits have expired' : 'The credits expire soon'}>
          <Icon name="alert" size={14} />
          {warning.expired ? 'Expired' : warning.daysLeft === 0 ? 'Today' : `${plural(warning.daysLeft, 'day')} left`}
        </span>
      )}
    </span>
  );
}
