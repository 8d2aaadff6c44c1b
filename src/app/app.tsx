import { StrictMode, useEffect } from 'react';
import { Router } from 'wouter';
import { Provider } from '@/lib/state.ts';
import { QueryClientProvider, queryClient } from '@/lib/query.ts';
import { appStore } from '@/lib/session-state.ts';
import { BusinessCalendarProvider } from '@/shared/business-calendar/business-calendar-provider.tsx';
import { AppRoutes } from './routes.tsx';
import { UpdateBanner } from './update-banner.tsx';

/**
 * The whole app under its providers. The browser renders it (main.tsx); the build renders it
 * too, at a sign-in page's path (`ssrPath`), into that page's own HTML (src/app/prerender.tsx),
 * which the browser then hydrates: the same tree on both sides, so the markup matches.
 */
export function App({ ssrPath, onMounted }: { ssrPath?: string; onMounted?: () => void }) {
  // Effects run in the browser only, after the first render (or the hydration) is on screen.
  useEffect(() => onMounted?.(), [onMounted]);
  return (
    <StrictMode>
      <Provider store={appStore}>
        <QueryClientProvider client={queryClient}>
          <Router {...(ssrPath !== undefined && { ssrPath, ssrSearch: '' })}>
            {/* Issue 36 item 11: every timer counts on the server's holiday calendar. */}
            <BusinessCalendarProvider>
              <AppRoutes />
            </BusinessCalendarProvider>
          </Router>
          <UpdateBanner />
        </QueryClientProvider>
      </Provider>
    </StrictMode>
  );
}
