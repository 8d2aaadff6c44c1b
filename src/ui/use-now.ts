import { useSyncExternalStore } from 'react';

interface Clock {
  now: Date;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
  /** One function per clock: React subscribes again whenever it receives a new one. */
  subscribe: (listener: () => void) => () => void;
  read: () => Date;
}

/**
 * One clock per refresh interval, shared by every component that reads it: all the timers of a
 * page tick at the same instant and compute from the same "now". (A clock per component ticked
 * at its own mount time, so two rows of the dashboard could show different minutes for a moment,
 * out of the order the server sorted them in.)
 */
const clocks = new Map<number, Clock>();

function clockFor(intervalMs: number): Clock {
  let clock = clocks.get(intervalMs);
  if (!clock) {
    const created: Clock = {
      now: new Date(),
      listeners: new Set(),
      timer: null,
      subscribe: (listener) => subscribe(created, intervalMs, listener),
      read: () => created.now,
    };
    clock = created;
    clocks.set(intervalMs, clock);
  }
  return clock;
}

function subscribe(clock: Clock, intervalMs: number, listener: () => void): () => void {
  clock.listeners.add(listener);
  if (clock.timer === null) {
    // The first reader after an idle spell starts from the present, not from when it stopped.
    clock.now = new Date();
    clock.timer = setInterval(() => {
      clock.now = new Date();
      for (const notify of clock.listeners) notify();
    }, intervalMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer !== null) {
      clearInterval(clock.timer);
      clock.timer = null;
    }
  };
}

/** The current time, re-read every `intervalMs` (timers refresh at 1 s, 10 s or 60 s by page). */
export function useNow(intervalMs: number): Date {
  const clock = clockFor(intervalMs);
  return useSyncExternalStore(clock.subscribe, clock.read);
}
