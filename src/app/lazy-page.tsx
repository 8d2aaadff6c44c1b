import { Suspense, type ReactNode } from 'react';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

/** What a lazily loaded portal or screen shows while its chunk downloads: a small centered spinner. */
export function RouteLoading() {
  return (
    <div className="route-loading" role="status" aria-label="Loading">
      <span className="spinner" />
    </div>
  );
}

/**
 * Suspense boundary for one lazily loaded portal or screen, inside the route's error boundary:
 * a chunk that cannot be downloaded (the server has a newer build and the tab still runs the
 * old one, or the network dropped) says so with a Reload button, and a page that throws while
 * rendering shows "Something went wrong" with a way back, never a blank page.
 */
export function LazyPage({ children }: { children: ReactNode }) {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<RouteLoading />}>{children}</Suspense>
    </RouteErrorBoundary>
  );
}
