import { offlineAtom } from './session-state.ts';
import { useAtomValue } from './state.ts';

/** The reason shown on hover over an action that needs the server while the app is offline. */
export const NEEDS_CONNECTION = 'Needs a connection';

/** The banner of both shells while the server cannot be reached. */
export const OFFLINE_BANNER = 'You are offline — showing what was last loaded. Changes need a connection.';

/** True while the app is offline (a call failed on the network, or the browser is offline). */
export function useOffline(): boolean {
  return useAtomValue(offlineAtom);
}

/**
 * Props for a button whose action needs the server: disabled with the reason on hover while
 * offline, untouched otherwise (`disabled` keeps the button's own reason to be disabled).
 */
export function needsConnection(offline: boolean, disabled = false): { disabled: boolean; title?: string } {
  return offline ? { disabled: true, title: NEEDS_CONNECTION } : { disabled };
}
