import { useState } from 'react';
import type { Me } from '@/domain/contract/me.ts';
import type { User } from '@/domain/contract/users.ts';
import { creatableStaffRoles, decideUserAction } from '@/domain/user-management.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fullName } from '@/lib/format.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { PersonCell } from '@/ui/person-cell.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { Icon } from '@/ui/icons.tsx';
import { Menu, type MenuItem } from '@/ui/menu.tsx';
import { deleteUser } from '@/shared/users/api/delete-user.ts';
import { listStaff } from '../api/list-staff.ts';
import { resendInvite } from '@/shared/users/api/resend-invite.ts';
import { setUserEnabled } from '@/shared/users/api/update-user.ts';
import { StaffUserModal } from './staff-user-modal.tsx';
import { staffMenuEntries } from '../staff-user-actions.ts';

type Action = 'disable' | 'enable' | 'invite' | 'delete';
const CONFIRM: Record<Action, { title: (n: string) => string; body: string; label: string }> = {
  disable: { title: (n) => `Disable ${n}?`, body: 'They are signed out at once and cannot sign in until enabled again.', label: 'Disable' },
  enable: { title: (n) => `Enable ${n}?`, body: 'They can sign in again.', label: 'Enable' },
  invite: { title: (n) => `Resend the invitation to ${n}?`, body: 'A new link is e-mailed; the previous one stops working.', label: 'Resend' },
  delete: { title: (n) => `Delete ${n}?`, body: 'They lose access at once and disappear from this list. This cannot be undone.', label: 'Delete' },
};
const ROLE_LABEL = { SUPERADMIN: 'Superadmin', ADMIN: 'Admin', EDITOR: 'Editor', OWNER: 'Owner', USER: 'User' } as const;

/** A§2 admin settings users table: status, enable/disable, resend invite, edit (only when enabled), delete — each confirmed. */
export function StaffUsers({ me }: { me: Me }) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.staff('staff-users'), queryFn: listStaff });
  const users = query.data ?? (query.isError ? [] : null);
  const error = query.error ? errorMessage(query.error) : null;
  const [pending, setPending] = useState<{ action: Action; user: User } | null>(null);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Staff users include the editors: the Editors page, the dashboard's picker and its rows show
  // them too. A resent invitation changes none of them, only this list's view of it.
  const changed = (onlyHere = false) =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.staff('staff-users') }),
      ...(onlyHere ? [] : [client.invalidateQueries({ queryKey: queryKeys.staff('editors') }), client.invalidateQueries({ queryKey: queryKeys.dashboard() })]),
    ]);

  const actor = { id: me.id, role: me.role.name, organizationId: null };
  const may = (u: User, action: 'edit' | 'enable' | 'delete' | 'invite') =>
    decideUserAction(actor, { id: u.id, role: u.role.name, organizationId: u.organizationId }, action).allowed;
  // Issue 36: the roles this person may give (a superadmin: Editor or Admin; an admin: Editor).
  const roles = creatableStaffRoles(me.role.name).map((role) => ROLE_LABEL[role]);

  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (u) => <PersonCell name={fullName(u)} pictureUrl={u.profilePictureUrl} isYou={u.id === me.id} role={ROLE_LABEL[u.role.name]} />,
    },
    { key: 'email', header: 'Email', cell: (u) => u.email },
    { key: 'phone', header: 'Phone', cell: (u) => u.phone ?? '—' },
    {
      key: 'status',
      header: 'Status',
      cell: (u) => (
        <span className="status-stack">
          <Badge tone={u.isEnabled ? 'success' : 'neutral'}>{u.isEnabled ? 'ACTIVE' : 'INACTIVE'}</Badge>
          {u.isEnabled === 1 && !u.hasPassword && <Badge tone="warning">Invite pending</Badge>}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      width: 56,
      cell: (u) => {
        const items: MenuItem[] = staffMenuEntries(u, (action) => may(u, action)).map((entry) => {
          if (entry === 'edit') return { label: 'Edit', onSelect: () => setEditing(u) };
          if (entry === 'invite')
            return {
              label: 'Resend invite link',
              onSelect: () => setPending({ action: 'invite', user: u }),
              disabled: !u.isEnabled,
              hint: 'Enable the user first.',
            };
          return { label: CONFIRM[entry].label, danger: entry === 'delete', onSelect: () => setPending({ action: entry, user: u }) };
        });
        return items.length ? <Menu label={`Actions for ${fullName(u)}`} items={items} /> : null;
      },
    },
  ];

  return (
    <section className="card" aria-label="Staff users">
      <header className="card-head">
        <div>
          <h2>Staff users</h2>
          <p className="card-sub">Admins and editors who work in the back-office.</p>
        </div>
        <Button variant="success" onClick={() => setEditing('new')}>
          <Icon name="plus" size={18} />
          Add staff user
        </Button>
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {notice && (
        <p className="inline-notice" role="status">
          <Icon name="check" size={16} />
          {notice}
        </p>
      )}
      <DataTable
        label="Staff users"
        columns={columns}
        rows={users ?? []}
        rowKey={(u) => u.id}
        loading={users === null}
        rowClassName={(u) => (u.isEnabled ? '' : 'dt-row-muted')}
      />
      {pending && (
        <ConfirmModal
          title={CONFIRM[pending.action].title(fullName(pending.user))}
          confirmLabel={CONFIRM[pending.action].label}
          cancelLabel="Cancel"
          variant={pending.action === 'delete' || pending.action === 'disable' ? 'danger' : 'primary'}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            try {
              if (pending.action === 'invite') await resendInvite(pending.user.id);
              else if (pending.action === 'delete') await deleteUser(pending.user.id);
              else await setUserEnabled(pending.user.id, pending.action === 'enable');
              setNotice(pending.action === 'invite' ? `A new invitation was sent to ${pending.user.email}.` : null);
              await changed(pending.action === 'invite');
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>{CONFIRM[pending.action].body}</p>
        </ConfirmModal>
      )}
      {editing && (
        <StaffUserModal
          user={editing === 'new' ? null : editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void changed();
          }}
        />
      )}
    </section>
  );
}
