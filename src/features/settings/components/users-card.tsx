import { useState } from 'react';
import type { User } from '@/domain/contract/users.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fullName } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { PersonCell } from '@/ui/person-cell.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { Icon } from '@/ui/icons.tsx';
import { Menu } from '@/ui/menu.tsx';
import { deleteUser } from '@/shared/users/api/delete-user.ts';
import { resendInvite } from '@/shared/users/api/resend-invite.ts';
import { setUserEnabled } from '@/shared/users/api/update-user.ts';

type Action = 'invite' | 'disable' | 'enable' | 'delete';

const QUESTIONS: Record<Action, { title: (name: string) => string; body: (user: User) => string; confirm: string; done: (user: User) => string }> = {
  invite: {
    title: () => 'Resend the invitation?',
    body: (u) => `A new invitation link goes to ${u.email}. The previous link stops working.`,
    confirm: 'Resend',
    done: (u) => `A new invitation was sent to ${u.email}.`,
  },
  disable: {
    title: (n) => `Disable ${n}?`,
    body: () => 'They are signed out at once and cannot sign in until you enable them again.',
    confirm: 'Disable',
    done: (u) => `${fullName(u)} is disabled.`,
  },
  enable: { title: (n) => `Enable ${n}?`, body: () => 'They can sign in again.', confirm: 'Enable', done: (u) => `${fullName(u)} is enabled again.` },
  delete: {
    title: (n) => `Delete ${n}?`,
    body: () => 'They lose access at once and disappear from this list. This cannot be undone.',
    confirm: 'Delete',
    done: (u) => `${fullName(u)} was deleted.`,
  },
};

const RUN: Record<Action, (user: User) => Promise<unknown>> = {
  invite: (u) => resendInvite(u.id),
  disable: (u) => setUserEnabled(u.id, false),
  enable: (u) => setUserEnabled(u.id, true),
  delete: (u) => deleteUser(u.id),
};

export function userStatus(user: User) {
  if (!user.isEnabled) return <Badge tone="neutral">Disabled</Badge>;
  if (!user.hasPassword) return <Badge tone="warning">Invite pending</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** C§2 users list: the owner resends invitations, disables, enables, edits and deletes users, each confirmed. */
export function UsersCard({
  users,
  meId,
  canManage,
  readOnlyReason,
  onAdd,
  onEdit,
  onChanged,
}: {
  users: User[] | null;
  meId: number;
  canManage: boolean;
  readOnlyReason?: string;
  onAdd: () => void;
  onEdit: (user: User) => void;
  onChanged: () => void;
}) {
  const [pending, setPending] = useState<{ action: Action; user: User } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (u) => <PersonCell name={fullName(u)} pictureUrl={u.profilePictureUrl} isYou={u.id === meId} role={u.role.name === 'OWNER' ? 'Owner' : null} />,
    },
    { key: 'email', header: 'E-mail', cell: (u) => u.email },
    { key: 'phone', header: 'Phone', cell: (u) => u.phone ?? '—' },
    { key: 'status', header: 'Status', cell: userStatus },
  ];
  if (canManage) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      width: 56,
      cell: (u) => (
        <Menu
          label={`Actions for ${fullName(u)}`}
          items={
            u.id === meId
              ? [{ label: 'Edit', onSelect: () => onEdit(u) }]
              : [
                  { label: 'Resend invite', onSelect: () => setPending({ action: 'invite', user: u }), disabled: !u.isEnabled, hint: 'Enable the user first.' },
                  u.isEnabled
                    ? { label: 'Disable', onSelect: () => setPending({ action: 'disable', user: u }) }
                    : { label: 'Enable', onSelect: () => setPending({ action: 'enable', user: u }) },
                  // A§2: edit only while enabled (the server refuses it too).
                  ...(u.isEnabled ? [{ label: 'Edit', onSelect: () => onEdit(u) }] : []),
                  { label: 'Delete', onSelect: () => setPending({ action: 'delete', user: u }), danger: true },
                ]
          }
        />
      ),
    });
  }

  return (
    <section className="card users-card" aria-label="Users">
      <header className="card-head">
        <div>
          <h2>Users</h2>
          <p className="card-sub">{users ? `${users.length} ${users.length === 1 ? 'member' : 'members'} in your organization` : 'Loading…'}</p>
          {readOnlyReason && <p className="card-sub">{readOnlyReason}</p>}
        </div>
        {canManage && (
          <Button variant="success" onClick={onAdd}>
            <Icon name="plus" size={18} />
            Add user
          </Button>
        )}
      </header>
      {notice && (
        <p className="inline-notice" role="status">
          <Icon name="check" size={16} />
          {notice}
        </p>
      )}
      <DataTable label="Users" columns={columns} rows={users ?? []} rowKey={(u) => u.id} loading={users === null} empty="No users yet." />
      {pending && (
        <ConfirmModal
          title={QUESTIONS[pending.action].title(fullName(pending.user))}
          confirmLabel={QUESTIONS[pending.action].confirm}
          cancelLabel="Cancel"
          variant={pending.action === 'delete' || pending.action === 'disable' ? 'danger' : 'primary'}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            try {
              await RUN[pending.action](pending.user);
              setNotice(QUESTIONS[pending.action].done(pending.user));
              onChanged();
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>{QUESTIONS[pending.action].body(pending.user)}</p>
        </ConfirmModal>
      )}
    </section>
  );
}
