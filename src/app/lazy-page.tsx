import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';

/** What a lazily loaded portal or screen shows while its chunk downloads: a small centered spinner. */
export function RouteLoading() {
  return (
    <div className="route-loading" role="status" aria-label="Loading">
      <span className="spinner" />
    </div>
  );
}

/** Chromium, Firefox and Safari word a failed `import()` differently. */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

/**
 * A page whose chunk cannot be downloaded (the server has a newer build and the tab still runs
 * the old one, or the network dropped) says so with a Reload button, instead of a blank page.
 * It never reloads by itself (an upload may be running). Other errors go on to the route's
 * own error boundary.
 */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: Error | null }> {
  override state: { failed: Error | null } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (error instanceof Error && CHUNK_FAILED.test(error.message)) console.warn('a page chunk failed to load', error.message, info.componentStack);
  }

  override render() {
    const { failed } = this.state;
    if (!failed) return this.props.children;
    if (!CHUNK_FAILED.test(failed.message)) throw failed;
    return (
      <div className="route-loading" role="alert">
        <p>This page could not be loaded. A new version of Cutdesk may be out, or the connection dropped.</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/** Suspense boundary for one lazily loaded portal or screen. */
export function LazyPage({ children }: { children: ReactNode }) {
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<RouteLoading />}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
