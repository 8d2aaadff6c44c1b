import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * Work a request starts but does not wait for (a recovery mail: answering before it is sent
 * keeps the answer's timing the same whether or not the account exists). Each task's error is
 * logged, never thrown at nobody; shutdown waits for the tasks still running (`drain`).
 */
export interface Background {
  run(name: string, task: () => Promise<unknown>): void;
  /** Resolves once every task started so far has ended. */
  drain(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    background: Background;
  }
}

export function createBackground(log: FastifyBaseLogger): Background {
  const running = new Set<Promise<unknown>>();
  return {
    run(name, task) {
      // setImmediate: the task starts after the reply has been handed to the socket.
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) => log.error({ err: error, task: name }, 'background task failed'))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** Decorates `app.background`; closing the app waits for the tasks in flight. */
export function registerBackground(app: FastifyInstance): void {
  const background = createBackground(app.log);
  app.decorate('background', background);
  app.addHook('onClose', async () => background.drain());
}
