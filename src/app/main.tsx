import { createRoot, hydrateRoot } from 'react-dom/client';
import { appStore, meAtom, offlineAtom } from '@/lib/session-state.ts';
import { queryClient } from '@/lib/query.ts';
import { restoreSession } from '@/lib/session.ts';
import { installUploads } from '@/shared/uploads/upload-client.ts';
import '@/ui/theme.css';
import { App } from './app.tsx';
import { takeOverPrerenderedPage } from './hydration.ts';
import { captureInstallPrompt } from './install-prompt.ts';
import { registerServiceWorker } from './pwa.ts';

// The browser's install offer can come at any time: it is kept for "Install Cutdesk" from the start.
captureInstallPrompt();

// C§4: stored items are read into the atoms when session-state loads; the user is loaded
// (and the token refreshed) before the first render, so guards decide with the real role.
await restoreSession(window.location);

// Pages shown from the offline copy are read again as soon as the server answers again.
appStore.sub(offlineAtom, () => {
  if (!appStore.get(offlineAtom)) void queryClient.invalidateQueries();
});

// A sign-in page the server sent prerendered (src/app/prerender.tsx) is hydrated where it
// stands, for a visitor signed out: the form was on screen before this script ran. Anyone else
// (signed in, so sent on elsewhere) gets the app rendered anew in its place.
const root = document.getElementById('root')!;
const prerendered = root.dataset.prerendered;
if (prerendered !== undefined && prerendered === window.location.pathname + window.location.search && !appStore.get(meAtom))
  hydrateRoot(root, <App onMounted={() => takeOverPrerenderedPage(root)} />);
else {
  root.dataset.hydrated = '';
  createRoot(root).render(<App />);
}
registerServiceWorker();
// C§4 "a dummy file upload is triggered at start": the upload worker starts with the session
// and resumes uploads left unfinished by a reload, a crash or a lost network.
installUploads();
