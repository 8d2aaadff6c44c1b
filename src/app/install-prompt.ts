import { useSyncExternalStore } from 'react';

/** Chromium's install event (not in the DOM typings). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function publish(next: BeforeInstallPromptEvent | null): void {
  deferred = next;
  for (const listener of listeners) listener();
}

function isStandalone(): boolean {
  return window.matchMedia('(display-mode: standalone)').matches;
}

/**
 * Keeps the browser's install offer for our own "Install Cutdesk" menu item instead of its
 * mini-infobar. Call once at start, before the browser fires `beforeinstallprompt`.
 */
export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    if (!isStandalone()) publish(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => publish(null));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const canInstall = () => deferred !== null;

/** Asks the browser to install the app (its own dialog); the offer is used up either way. */
async function install(): Promise<void> {
  const event = deferred;
  if (!event) return;
  publish(null);
  await event.prompt();
  await event.userChoice;
}

/** Whether "Install Cutdesk" is offered (the browser can install, the app is not installed), and the action. */
export function useInstallPrompt(): { canInstall: boolean; install: () => Promise<void> } {
  return { canInstall: useSyncExternalStore(subscribe, canInstall), install };
}
