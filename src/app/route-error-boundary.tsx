import { Component, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { homeFor } from '@/domain/route-guard.ts';
import { isCustomerRole, isStaffRole } from '@/domain/roles.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useAtomValue } from '@/lib/state.ts';

/**
 * Chromium, Firefox and Safari word a failed `import()` differently; Vite's preload helper says
 * "Unable to preload CSS" when a chunk's stylesheet is gone.
 */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

/** A page's code could not be downloaded (a deploy removed the old chunk, or the network dropped). */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILED.test(error.message);
}

interface BackLink {
  href: string;
  label: string;
}

/** Where "Back" leads from a broken page: the home of the signed-in role, else the start. */
function useBackLink(): BackLink {
  const role = useAtomValue(meAtom)?.role.name ?? null;
  if (isStaffRole(role)) return { href: homeFor(role), label: 'Back to Dashboard' };
  if (isCustomerRole(role)) return { href: homeFor(role), label: 'Back to Projects' };
  return { href: '/', label: 'Back' };
}

interface BoundaryProps {
  /** The location: another page resets the boundary (the shell around it stays mounted). */
  resetKey: string;
  back: BackLink;
  children: ReactNode;
}

interface BoundaryState {
  failure: { error: unknown } | null;
  resetKey: string;
}

/**
 * React catches render errors only in a class component. The boundary is not keyed by the
 * location (that would remount the portal and its shell on every navigation): it forgets its
 * error when the location changes, as a keyed one would.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failure: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failure: null, resetKey: props.resetKey };
  }

  private readonly reset = () => this.setState({ failure: null });

  override render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    if (isChunkLoadError(failure.error)) {
      // React.lazy keeps a failed import: only a reload fetches the new build. Never automatic
      // (an upload may be running): the user decides.
      return (
        <RouteErrorPanel title="This page could not be loaded" message="A new version of Cutdesk may be out, or the connection dropped.">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </RouteErrorPanel>
      );
    }
    const { back } = this.props;
    return (
      <RouteErrorPanel title="Something went wrong on this page" message="The rest of Cutdesk still works. Try again, or go back and open the page once more.">
        <button type="button" className="btn btn-primary" onClick={this.reset}>
          Try again
        </button>
        {/* Back to the page it already is (a broken home page) still clears the error. */}
        <Link href={back.href} className="btn btn-secondary" onClick={this.reset}>
          {back.label}
        </Link>
      </RouteErrorPanel>
    );
  }
}

function RouteErrorPanel({ title, message, children }: { title: string; message: string; children: ReactNode }) {
  return (
    <section className="route-error" role="alert">
      <h1 className="route-error-title">{title}</h1>
      <p className="route-error-message">{message}</p>
      <div className="route-error-actions">{children}</div>
    </section>
  );
}

/**
 * The error boundary every route passes through (routes.tsx, and each page inside a portal's
 * shell through LazyPage): a page that throws while rendering, or whose chunk is gone, shows a
 * finished panel with a way on instead of a blank window, and the shell around it keeps working.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const back = useBackLink();
  return (
    <Boundary resetKey={location} back={back}>
      {children}
    </Boundary>
  );
}
