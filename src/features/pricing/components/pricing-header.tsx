import { Link } from 'wouter';
import type { RoleName } from '@/domain/roles.ts';
import { homeFor } from '@/domain/route-guard.ts';
import { isStaffRole } from '@/domain/roles.ts';
import { Logo } from '@/ui/brand.tsx';
import { pathTo } from '@/domain/pages.ts';

/** The small header of the standalone pricing page: brand, then sign in and create account (or the way back in). */
export function PricingHeader({ role }: { role: RoleName | null }) {
  return (
    <header className="pricing-header">
      <Link href={pathTo('pricing')} aria-label="Cutdesk pricing">
        <Logo />
      </Link>
      <nav className="pricing-header-links" aria-label="Account">
        {role ? (
          <Link href={homeFor(role)} className="btn btn-secondary">
            {isStaffRole(role) ? 'Go to dashboard' : 'Go to your projects'}
          </Link>
        ) : (
          <>
            <Link href={pathTo('customerSignIn')} className="btn btn-ghost">
              Sign in
            </Link>
            <Link href={pathTo('register')} className="btn btn-success">
              Create account
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}
