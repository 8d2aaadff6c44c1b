import { useAtomValue } from '@/lib/state.ts';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { pageAt, pathTo } from '@/domain/pages.ts';
import { formatTb, formatUsedSpace } from '@/domain/bytes.ts';
import { tbToBytes } from '@/domain/bytes.ts';
import { pageTitleAtom } from '@/shared/project/page-title.ts';
import { adminTokenAtom, meAtom } from '@/lib/session-state.ts';
import { endImpersonation, landingFor, logout } from '@/lib/session.ts';
import { useTopBarInfo } from '@/shared/organization/top-bar-info.ts';
import { Avatar, Logo } from '@/ui/brand.tsx';
import { InlineTitle } from '@/ui/inline-title.tsx';
import { NEEDS_CONNECTION, useOffline } from '@/lib/connectivity.ts';
import { OfflineBanner } from './offline-banner.tsx';
import { InstallAppButton } from '../install-button.tsx';

const MENU = [
  { href: pathTo('projects'), label: 'Projects' },
  { href: pathTo('contentLibrary'), label: 'Content Library' },
  { href: pathTo('help'), label: 'Help', external: true },
  { href: pathTo('settings'), label: 'Admin Settings' },
];

/** Top bar, impersonation strip and footer around every customer page (C§2 Shell). */
export function CustomerShell({ children }: { children: ReactNode }) {
  const me = useAtomValue(meAtom);
  const info = useTopBarInfo();
  const adminToken = useAtomValue(adminTokenAtom);
  const pageTitle = useAtomValue(pageTitleAtom);
  const [location, navigate] = useLocation();
  const offline = useOffline();

  const onProjectPage = pageAt(location)?.name === 'project';
  const toSettings = () => navigate(pathTo('settings'));
  // A refused admin token already sent the admin to the staff sign-in (session.ts); any other
  // failure leaves the page as it is rather than an unhandled rejection.
  const adminLogout = () =>
    endImpersonation()
      .then((next) => navigate(landingFor(next), { replace: true }))
      .catch(() => undefined);

  return (
    <>
      {adminToken && (
        <div className="impersonation-bar" role="status">
          You are signed in as {info?.organizationName ?? me?.organizationName ?? 'a customer'}.
          <button className="btn" onClick={() => void adminLogout()}>
            Admin logout
          </button>
        </div>
      )}
      <header className="topbar">
        <Link href={pathTo('projects')} aria-label="Cutdesk home">
          <Logo inverse />
        </Link>
        <nav className="topnav" aria-label="Main">
          {MENU.map((item) =>
            item.external ? (
              <a key={item.href} href={item.href} target="_blank" rel="noreferrer">
                {item.label}
              </a>
            ) : (
              <Link key={item.href} href={item.href} className={location.startsWith(item.href) ? 'active' : ''}>
                {item.label}
              </Link>
            ),
          )}
        </nav>
        {onProjectPage && pageTitle && <InlineTitle key={pageTitle.title} {...pageTitle} />}
        <div className="topbar-spacer" />
        <div className="meters">
          <button className="meter" onClick={toSettings} title="Storage used of your plan">
            <span className="meter-label">Storage</span>
            <span className="meter-value" data-testid="storage-meter">
              {info ? `${formatUsedSpace(info.usedSpace)} / ${formatTb(tbToBytes(info.storageTb))}` : '—'}
            </span>
          </button>
          <button className="meter" onClick={toSettings} title="Credits used this period">
            <span className="meter-label">Credits</span>
            <span className="meter-value" data-testid="credits-meter">
              {!info ? (
                '—'
              ) : info.creditsActive && info.activeCredits > 0 ? (
                `${info.usedCredits} / ${info.activeCredits}`
              ) : (
                <span className="meter-note">No credits</span>
              )}
            </span>
          </button>
        </div>
        {!onProjectPage &&
          (offline ? (
            <span className="btn btn-success is-offline-disabled" aria-disabled="true" title={NEEDS_CONNECTION}>
              + New project
            </span>
          ) : (
            <Link href={pathTo('createProject')} className="btn btn-success">
              + New project
            </Link>
          ))}
        <div className="who">
          <Avatar name={me?.name ?? ''} url={me?.profilePictureUrl ?? null} />
          <div className="who-text">
            <span className="who-name">{me?.name}</span>
            <span className="who-org">{me?.organizationName}</span>
          </div>
          <InstallAppButton />
          {!adminToken && (
            <button
              className="btn btn-ghost"
              style={{ color: '#fff' }}
              onClick={() => {
                logout();
                navigate(pathTo('customerSignIn'), { replace: true });
              }}
            >
              Log out
            </button>
          )}
        </div>
      </header>
      <OfflineBanner />
      <main className="shell-main">{children}</main>
      <footer className="footer">
        <span>© {new Date().getFullYear()} Cutdesk</span>
        <nav aria-label="Footer">
          <Link href={pathTo('projects')}>Projects</Link>
          <Link href={pathTo('pricing')}>Pricing</Link>
          <a href={pathTo('help')} target="_blank" rel="noreferrer">
            Help
          </a>
          <a href={`${pathTo('help')}#privacy`} target="_blank" rel="noreferrer">
            Privacy
          </a>
        </nav>
      </footer>
    </>
  );
}
