import { setFlagsFromString } from 'node:v8';

/**
 * Issue 14: V8 counts the external memory of every request body's buffers (64 KiB a socket
 * read) against a fixed limit of its own and starts a full collection whenever it is passed:
 * about one per 35 MiB an upload brings in, each marking the whole heap on V8's threads (1.2–2.8
 * CPU s per GiB uploaded, bench/upload-browser's `serverThreads`). Counted within the heap's
 * global limit instead, half as many collections run and the store spends about 1 CPU s less per
 * GiB (docs/benchmarks.md). Set before anything is allocated; a V8 without the flag says so on
 * stderr and goes on.
 */
setFlagsFromString('--external-memory-accounted-in-global-limit');
