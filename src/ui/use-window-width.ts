import { useSyncExternalStore } from 'react';
import { MOBILE_MAX_WIDTH } from './constants.ts';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/**
 * True while the window is 768 px wide or narrower; follows resizing. A page rendered at build
 * time (src/app/prerender.tsx) is a desktop one: hydrated as such, then rendered for this window.
 */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth <= MOBILE_MAX_WIDTH,
    () => false,
  );
}
