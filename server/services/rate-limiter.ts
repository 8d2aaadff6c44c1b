/**
 * Fixed-window counters kept in this process. With several instances each keeps its own
 * count, so the effective limit is per instance (docs/decisions.md).
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #windowMs: number;
  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** Counts one attempt for `key`; false once more than `limit` fall in the current window. */
  hit(key: string, limit: number, now = Date.now()): boolean {
    if (this.#windows.size > 50_000) this.#sweep(now);
    const window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      this.#windows.set(key, { count: 1, resetAt: now + this.#windowMs });
      return true;
    }
    window.count += 1;
    return window.count <= limit;
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
