import { useState } from 'react';
import type { User } from '@/domain/contract/users.ts';
import { USER_MESSAGES } from '@/domain/user-management.ts';
import { optionalLinkRule } from '@/domain/organization-rules.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { formatDate, fullName } from '@/lib/format.ts';
import { useInfiniteQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Badge } from '@/ui/badge.tsx';
import { Avatar } from '@/ui/brand.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { DataTable, MoreButton, type Column } from '@/ui/data-table.tsx';
import { EditableField } from '@/ui/editable-field.tsx';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Icon } from '@/ui/icons.tsx';
import { Menu } from '@/ui/menu.tsx';
import { deleteEditor } from './api/delete-editor.ts';
import { editorsListKey } from './api/keys.ts';
import { EDITORS_PAGE_SIZE, listEditors } from './api/list-editors.ts';
import { setEditorDrive } from './api/set-editor-drive.ts';
import { setUserEnabled } from '@/shared/users/api/update-user.ts';
import { EditorModal } from './components/editor-modal.tsx';

type Action = 'disable' | 'enable' | 'delete';
const CONFIRM: Record<Action, { title: (name: string) => string; body: string; label: string }> = {
  disable: { title: (n) => `Disable ${n}?`, body: 'The editor is signed out at once and cannot sign in until enabled again.', label: 'Disable' },
  enable: { title: (n) => `Enable ${n}?`, body: 'The editor can sign in again.', label: 'Enable' },
  delete: { title: (n) => `Delete ${n}?`, body: 'The editor disappears from the team and cannot sign in. This cannot be undone.', label: 'Delete' },
};

/** /editors (A§2): the editing team with drive links, actions and the add/finish-profile modal. */
export function EditorsPage() {
  const [pending, setPending] = useState<{ action: Action; editor: User } | null>(null);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const client = useQueryClient();

  const query = useInfiniteQuery({
    queryKey: editorsListKey(),
    queryFn: ({ pageParam }) => listEditors(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length === EDITORS_PAGE_SIZE ? pages.reduce((n, page) => n + page.length, 0) : undefined),
  });
  // An editor who moved between pages while paging is listed once.
  const editors = query.data ? query.data.pages.flat().filter((editor, i, all) => all.findIndex((e) => e.id === editor.id) === i) : query.isError ? [] : null;
  const error = query.error ? errorMessage(query.error) : null;

  type Pages = { pages: User[][]; pageParams: unknown[] };
  const edit = (change: (pages: User[][]) => User[][]) =>
    client.setQueryData<Pages>(editorsListKey(), (data) => data && { ...data, pages: change(data.pages) });
  /**
   * Shows the change at once, then refreshes every list of editors (the dashboard's picker sits
   * under the same key) and, when `onDashboard`, the dashboard rows that name the editor.
   */
  const changed = (change: (pages: User[][]) => User[][], onDashboard: boolean) => {
    edit(change);
    void client.invalidateQueries({ queryKey: queryKeys.staff('editors') });
    void client.invalidateQueries({ queryKey: queryKeys.staff('staff-users') });
    if (onDashboard) void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
  };
  const replace = (saved: User, onDashboard = true) => changed((pages) => pages.map((page) => page.map((e) => (e.id === saved.id ? saved : e))), onDashboard);

  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (e) => (
        <span className="person">
          <Avatar name={fullName(e)} url={e.profilePictureUrl} size={36} />
          <span>
            <span className="person-name">{fullName(e)}</span>
            {!e.isEnabled && <Badge tone="neutral">Disabled</Badge>}
            {e.isEnabled === 1 && !e.hasPassword && <Badge tone="warning">Invite pending</Badge>}
          </span>
        </span>
      ),
    },
    {
      key: 'drive',
      header: 'Editor drive',
      width: '26%',
      cell: (e) => (
        <EditableField
          label={`Drive link of ${fullName(e)}`}
          hideLabel
          value={e.assetsPath}
          placeholder="https://…"
          validate={optionalLinkRule}
          onSave={async (value) => {
            try {
              // The drive link shows on this page only.
              replace(await setEditorDrive(e.id, value), false);
            } catch (err) {
              return fieldError(err, 'path');
            }
          }}
        />
      ),
    },
    { key: 'email', header: 'Email', cell: (e) => e.email },
    { key: 'created', header: 'Created', nowrap: true, cell: (e) => formatDate(e.createdAt) },
    { key: 'phone', header: 'Phone', nowrap: true, cell: (e) => e.phone ?? '—' },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      width: 56,
      cell: (e) => (
        <Menu
          label={`Actions for ${fullName(e)}`}
          items={[
            e.isEnabled
              ? { label: 'Disable', onSelect: () => setPending({ action: 'disable', editor: e }) }
              : { label: 'Enable', onSelect: () => setPending({ action: 'enable', editor: e }) },
            { label: 'Edit info', onSelect: () => setEditing(e) },
            { label: 'Delete', danger: true, onSelect: () => setPending({ action: 'delete', editor: e }) },
          ]}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Editors"
        subtitle="Your editing team, their drive folders and contact details."
        actions={
          <Button variant="success" onClick={() => setEditing('new')}>
            <Icon name="plus" size={18} />
            Add editor
          </Button>
        }
      />
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="table-card dt-card">
        <DataTable
          label="Editors"
          columns={columns}
          rows={editors ?? []}
          rowKey={(e) => e.id}
          loading={editors === null}
          rowClassName={(e) => (e.isEnabled ? '' : 'dt-row-muted')}
          empty="No editors yet. Add the first one."
        />
      </div>
      <MoreButton visible={query.hasNextPage && editors !== null} busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        Get more editors
      </MoreButton>
      {pending && (
        <ConfirmModal
          title={CONFIRM[pending.action].title(fullName(pending.editor))}
          confirmLabel={CONFIRM[pending.action].label}
          cancelLabel="Cancel"
          variant={pending.action === 'enable' ? 'primary' : 'danger'}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            try {
              if (pending.action === 'delete') {
                await deleteEditor(pending.editor.id);
                const gone = pending.editor.id;
                changed((pages) => pages.map((page) => page.filter((e) => e.id !== gone)), true);
              } else replace(await setUserEnabled(pending.editor.id, pending.action === 'enable'));
            } catch (e) {
              // A§8: a 403 on delete means assigned projects; every other failure is the general message.
              if (pending.action === 'delete' && e instanceof ApiError && e.status === 403) return USER_MESSAGES.editorHasProjects;
              return MESSAGES.generic;
            }
          }}
        >
          <p>{CONFIRM[pending.action].body}</p>
        </ConfirmModal>
      )}
      {editing && (
        <EditorModal
          editor={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if (editors?.some((e) => e.id === saved.id)) replace(saved);
            else changed((pages) => [[saved, ...(pages[0] ?? [])], ...pages.slice(1)], true);
          }}
        />
      )}
    </>
  );
}
