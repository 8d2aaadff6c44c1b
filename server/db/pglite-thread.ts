/**
 * Embedded PGlite on a thread of its own (issue 14): PostgreSQL's start and every statement run
 * here, beside the thread that parses HTTP, runs the routes and serializes answers, instead of
 * taking turns with them. The server's side is server/db/pglite-bridge.ts; the messages are
 * server/db/pglite-protocol.ts. Requests that come while the database opens wait for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { discard, imageTarball, startFromImage } from './image.ts';
import { PGLITE_PARSERS } from './pg-types.ts';
import { errorFields, type PgliteAnswer, type PgliteEvent, type PgliteRequest, type PgliteThreadOptions } from './pglite-protocol.ts';

const port = parentPort!;
const options = workerData as PgliteThreadOptions;
const post = (message: PgliteAnswer | PgliteEvent, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const opening = (async () => {
  // `image` is named only for a new directory or a migrated database in memory: unpacked or
  // loaded, or else the database is made by initdb and the server's side makes the image from it.
  const inMemory = options.dataDir === 'memory://';
  const loadDataDir = inMemory && options.image ? (imageTarball(options.image) ?? undefined) : undefined;
  const madeFresh = options.image !== null && (inMemory ? !loadDataDir : !startFromImage(options.image, options.dataDir));
  try {
    const pglite = await PGlite.create(options.dataDir, { parsers: PGLITE_PARSERS, loadDataDir });
    return { pglite, madeFresh };
  } catch (error) {
    // A new database that could not be made (a full disk, issue 32) is removed, not left half-made
    // for the next start to open as if it were one. (`image` is named for a new directory only.)
    if (!inMemory && options.image !== null) discard(options.dataDir);
    throw error;
  }
})();
opening.then(
  ({ madeFresh }) => post({ event: 'ready', madeFresh }),
  (error: unknown) => post({ event: 'failed', error: errorFields(error) }),
);

/** Open transactions, by the number the server's side holds. */
const transactions = new Map<number, { tx: Transaction; decide: (commit: boolean) => void; done: Promise<void> }>();
const listening = new Map<string, () => Promise<void>>();
let lastTransaction = 0;
/** Thrown inside a transaction the server's side rolls back: PGlite then rolls it back. */
const ROLLBACK = Symbol('rollback');

async function begin(pglite: PGlite): Promise<number> {
  const number = (lastTransaction += 1);
  let began!: () => void;
  const begun = new Promise<void>((resolve) => (began = resolve));
  let decide!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  const done = pglite
    .transaction(async (tx) => {
      transactions.set(number, { tx, decide, done });
      began();
      if (!(await decided)) throw ROLLBACK;
    })
    .then(
      () => undefined,
      (error: unknown) => {
        if (error !== ROLLBACK) throw error;
      },
    )
    .finally(() => transactions.delete(number));
  // A BEGIN that fails ends `done` before the callback ever runs.
  await Promise.race([begun, done]);
  if (!transactions.has(number)) throw new Error('the transaction did not begin');
  return number;
}

async function answer(pglite: PGlite, request: PgliteRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.op) {
    case 'query': {
      const runner = request.tx === null ? pglite : transactions.get(request.tx)?.tx;
      if (!runner) throw new Error('no such transaction');
      const { rows, affectedRows } = await runner.query(request.sql, request.params, { rowMode: 'object' });
      return { value: { rows, affectedRows } };
    }
    case 'begin':
      return { value: await begin(pglite) };
    case 'commit':
    case 'rollback': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('no such transaction');
      open.decide(request.op === 'commit');
      await open.done;
      return { value: null };
    }
    case 'listen': {
      if (!listening.has(request.channel))
        listening.set(request.channel, await pglite.listen(request.channel, (payload) => post({ event: 'notification', channel: request.channel, payload })));
      return { value: null };
    }
    case 'unlisten': {
      await listening.get(request.channel)?.();
      listening.delete(request.channel);
      return { value: null };
    }
    case 'dump': {
      const dump = await pglite.dumpDataDir(request.compression);
      const bytes = await dump.arrayBuffer();
      return { value: bytes, transfer: [bytes] };
    }
    case 'close': {
      if (!pglite.closed) await pglite.close();
      return { value: null };
    }
  }
}

port.on('message', (request: PgliteRequest) => {
  void opening
    .then(({ pglite }) => answer(pglite, request))
    .then(
      ({ value, transfer }) => {
        try {
          post({ id: request.id, ok: true, value }, transfer);
        } catch (error) {
          // An answer that cannot be cloned (a value PGlite made that no message can carry).
          post({ id: request.id, ok: false, error: errorFields(error) });
        }
      },
      (error: unknown) => post({ id: request.id, ok: false, error: errorFields(error) }),
    );
});
