import { useState } from 'react';
import { errorMessage } from '@/lib/api-client.ts';
import { keepPreviousData, useQuery } from '@/lib/query.ts';
import { fullName } from '@/lib/format.ts';
import { Avatar } from '@/ui/brand.tsx';
import { Icon } from '@/ui/icons.tsx';
import { organizationKeys } from '../api/keys.ts';
import { ORGANIZATION_USERS_PAGE, listUsers } from '../api/list-users.ts';

/** A§2 users of the organization, 4 per page with arrows. */
export function UsersPager({ organizationId, total }: { organizationId: number; total: number }) {
  const [start, setStart] = useState(0);
  // The page on screen stays until the next one arrives.
  const query = useQuery({
    queryKey: organizationKeys.usersPage(organizationId, start),
    queryFn: () => listUsers(organizationId, start),
    placeholderData: keepPreviousData,
  });
  const users = query.data ?? (query.isError ? [] : null);
  const error = query.error ? errorMessage(query.error) : null;
  const last = Math.min(total, start + ORGANIZATION_USERS_PAGE);
  return (
    <section className="card users-pager" aria-label="Users">
      <header className="card-head">
        <h2>Users</h2>
        <div className="pager">
          <span className="pager-range">{total === 0 ? 'None' : `${start + 1}–${last} of ${total}`}</span>
          <button
            type="button"
            className="icon-button pager-arrow"
            aria-label="Previous users"
            disabled={start === 0}
            onClick={() => setStart(Math.max(0, start - ORGANIZATION_USERS_PAGE))}
          >
            <Icon name="chevronLeft" size={18} />
          </button>
          <button
            type="button"
            className="icon-button pager-arrow"
            aria-label="Next users"
            disabled={last >= total}
            onClick={() => setStart(start + ORGANIZATION_USERS_PAGE)}
          >
            <Icon name="chevronRight" size={18} />
          </button>
        </div>
      </header>
      {error && <p className="field-error">{error}</p>}
      <ul className="user-list">
        {users === null ? (
          <li className="user-list-loading">
            <span className="spinner" role="status" aria-label="Loading" />
          </li>
        ) : (
          users.map((u) => (
            <li key={u.id}>
              <Avatar name={fullName(u)} url={u.profilePictureUrl} size={36} />
              <span className="user-list-text">
                <span className="person-name">
                  {fullName(u)}
                  {u.role.name === 'OWNER' && <span className="person-role">Owner</span>}
                  {!u.isEnabled && <span className="person-role">Disabled</span>}
                </span>
                <span className="user-list-sub">
                  {u.email}
                  {u.phone ? ` · ${u.phone}` : ''}
                </span>
              </span>
            </li>
          ))
        )}
      </ul>
    </section>
  );
}
