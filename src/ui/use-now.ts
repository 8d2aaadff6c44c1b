import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs` (timers refresh at 1 s, 10 s or 60 s by page). */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
