import { useAtomValue } from '@/lib/state.ts';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { PAGES, pathTo, type PageName } from '@/domain/pages.ts';
import { pageTitleAtom } from '@/shared/project/page-title.ts';
import { meAtom } from '@/lib/session-state.ts';
import { logout } from '@/lib/session.ts';
import { Avatar, Logo } from '@/ui/brand.tsx';
import { Icon } from '@/ui/icons.tsx';
import { InlineTitle } from '@/ui/inline-title.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { InstallAppButton } from '../install-button.tsx';

/** The menu; an EDITOR sees the pages the route table does not keep for managers (A§6). */
const MENU = [
  { page: 'dashboard', label: 'Dashboard', icon: 'grid' },
  { page: 'customers', label: 'Customers', icon: 'users' },
  { page: 'editors', label: 'Editors', icon: 'scissors' },
  { page: 'onboarding', label: 'Onboarding', icon: 'rocket' },
  { page: 'adminSettings', label: 'Settings', icon: 'gear' },
] as const satisfies readonly { page: PageName; label: string; icon: string }[];

/** Left menu and top bar of the staff portal (A§2 Shell). An EDITOR sees only the Dashboard. */
export function StaffShell({ children, title }: { children: ReactNode; title?: ReactNode }) {
  const me = useAtomValue(meAtom);
  const [location, navigate] = useLocation();
  const isEditor = me?.role.name === 'EDITOR';
  const pageTitle = useAtomValue(pageTitleAtom);
  return (
    <div className="staff">
      <aside className="sidebar">
        <Link href={pathTo('dashboard')} aria-label="Cutdesk dashboard">
          <Logo inverse />
        </Link>
        <nav aria-label="Staff">
          {MENU.filter((item) => !isEditor || !('managersOnly' in PAGES[item.page])).map((item) => (
            <Link key={item.page} href={pathTo(item.page)} className={location.startsWith(pathTo(item.page)) ? 'active' : ''}>
              <Icon name={item.icon} className="side-icon" />
              {item.label}
            </Link>
          ))}
        </nav>
        <button
          className="side-link"
          onClick={() => {
            logout();
            navigate(pathTo('staffSignIn'), { replace: true });
          }}
        >
          <Icon name="logout" className="side-icon" />
          Logout
        </button>
      </aside>
      <div>
        <header className="staff-top">
          <div className="staff-title">{pageTitle ? <InlineTitle key={pageTitle.title} {...pageTitle} /> : title}</div>
          <div className="who">
            <InstallAppButton />
            <div className="who-text" style={{ textAlign: 'right' }}>
              <span className="who-name">{me?.name}</span>
              <span className="who-org">{me?.role.name && <span className="role-badge">{me.role.name}</span>}</span>
            </div>
            <Avatar name={me?.name ?? ''} url={me?.profilePictureUrl ?? null} />
          </div>
        </header>
        <OfflineBanner />
        <main className="staff-main">{children}</main>
      </div>
    </div>
  );
}
