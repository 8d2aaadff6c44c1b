import { Provider } from '@/lib/state.ts';
import { QueryClientProvider, queryClient } from '@/lib/query.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { appStore, offlineAtom } from '@/lib/session-state.ts';
import { restoreSession } from '@/lib/session.ts';
import { BusinessCalendarProvider } from '@/shared/business-calendar/business-calendar-provider.tsx';
import { installUploads } from '@/shared/uploads/upload-client.ts';
import '@/ui/theme.css';
import { captureInstallPrompt } from './install-prompt.ts';
import { registerServiceWorker } from './pwa.ts';
import { AppRoutes } from './routes.tsx';
import { UpdateBanner } from './update-banner.tsx';

// The browser's install offer can come at any time: it is kept for "Install Cutdesk" from the start.
captureInstallPrompt();

// C§4: stored items are read into the atoms when session-state loads; the user is loaded
// (and the token refreshed) before the first render, so guards decide with the real role.
await restoreSession(window.location);

// Pages shown from the offline copy are read again as soon as the server answers again.
appStore.sub(offlineAtom, () => {
  if (!appStore.get(offlineAtom)) void queryClient.invalidateQueries();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={appStore}>
      <QueryClientProvider client={queryClient}>
        {/* Issue 36 item 11: every timer counts on the server's holiday calendar. */}
        <BusinessCalendarProvider>
          <AppRoutes />
        </BusinessCalendarProvider>
        <UpdateBanner />
      </QueryClientProvider>
    </Provider>
  </StrictMode>,
);
registerServiceWorker();
// C§4 "a dummy file upload is triggered at start": the upload worker starts with the session
// and resumes uploads left unfinished by a reload, a crash or a lost network.
installUploads();
