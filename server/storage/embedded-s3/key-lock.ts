/**
 * Serializes work per name within this process. Writes to one key (data file, sidecar,
 * removal of the previous data file) must not interleave, or a concurrent overwrite could
 * leave an orphaned data file behind. One process owns a data directory, as with PGlite.
 */
export interface KeyLock {
  run<T>(name: string, work: () => Promise<T>): Promise<T>;
}

export function createKeyLock(): KeyLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async run<T>(name: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const current = previous.catch(() => undefined).then(work);
      const tail = current.catch(() => undefined);
      tails.set(name, tail);
      try {
        return await current;
      } finally {
        if (tails.get(name) === tail) tails.delete(name);
      }
    },
  };
}
