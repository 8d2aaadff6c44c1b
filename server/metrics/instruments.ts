import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * This instance's Prometheus instruments, in a registry of its own (not prom-client's global
 * one): tests and benchmarks build several apps in one process, and each must count alone.
 * What other parts record goes through the small methods below, so none of them imports
 * prom-client; figures read from the database or from memory are collected at scrape time.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One answered request: `route` is the route's pattern (never the raw URL). */
  request(method: string, route: string, status: number, seconds: number): void;
  /** A periodic job (server/jobs.ts) starts; the returned function records how it ended. */
  jobStarted(job: string): (outcome: 'ok' | 'failed') => void;
  /** A media job run by this instance's worker ended: done, queued again (retry) or failed for good. */
  mediaJobFinished(kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number): void;
  /** An asset (raw upload) was registered: a new record, `bytes` long. */
  uploadRegistered(type: string, bytes: number): void;
  /** Adds a counter whose total (it only grows) is read when Prometheus scrapes. */
  counterOnScrape(name: `${string}_total`, help: string, read: () => number): void;
  /** Adds a gauge whose value(s) are read when Prometheus scrapes. */
  gaugeOnScrape(
    name: string,
    help: string,
    labelNames: readonly string[],
    read: (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void,
  ): void;
}

/**
 * Latency buckets (seconds): API calls take milliseconds, /s3 upload parts of 20 MiB from slow
 * links take minutes; the top buckets keep the latter out of +Inf.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process figures (CPU, memory, event-loop lag, GC) under their usual names: dashboards expect them.
  collectDefaultMetrics({ register: registry });
  // Gauges whose names end in `_total`, which Prometheus keeps for counters (`promtool check
  // metrics` fails on them); `nodejs_active_handles`, `_requests` and `_resources`, by type,
  // stay, and sum to the same figures.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);

  const requests = new Counter({
    name: 'cutdesk_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'cutdesk_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const jobsRunning = new Gauge({
    name: 'cutdesk_periodic_jobs_running',
    help: 'Periodic jobs of this instance running now, by job',
    labelNames: ['job'],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'cutdesk_periodic_job_runs_total',
    help: 'Finished runs of periodic jobs on this instance, by job and outcome (ok, failed)',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'cutdesk_periodic_job_duration_seconds',
    help: 'Duration of periodic job runs on this instance, by job',
    labelNames: ['job'],
    buckets: [0.01, 0.1, 1, 10, 60, 600],
    registers: [registry],
  });
  const mediaRuns = new Counter({
    name: 'cutdesk_media_job_runs_total',
    help: "Media jobs run by this instance's worker, by kind and outcome (done, retry, failed)",
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const mediaSeconds = new Histogram({
    name: 'cutdesk_media_job_duration_seconds',
    help: 'Duration of the media jobs this instance ran, by kind',
    labelNames: ['kind'],
    buckets: [0.1, 1, 10, 60, 600, 3600],
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'cutdesk_upload_registrations_total',
    help: 'Uploaded files registered as assets through this instance, by asset type',
    labelNames: ['type'],
    registers: [registry],
  });
  const uploadBytes = new Counter({
    name: 'cutdesk_upload_registered_bytes_total',
    help: 'Bytes of the uploaded files registered through this instance, by asset type',
    labelNames: ['type'],
    registers: [registry],
  });

  // Bounded like the labels themselves: methods × route patterns × statuses.
  const children = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();

  return {
    registry,
    request(method, route, status, seconds) {
      // The labelled children are kept per combination: prom-client would otherwise hash the
      // labels twice on every request (bench/edges.ts measures the hook).
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        const labels = { method, route, status_code: String(status) };
        child = { count: requests.labels(labels), time: latency.labels(labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    jobStarted(job) {
      jobsRunning.inc({ job });
      const end = jobSeconds.startTimer({ job });
      return (outcome) => {
        jobsRunning.dec({ job });
        end();
        jobRuns.inc({ job, outcome });
      };
    },
    mediaJobFinished(kind, outcome, seconds) {
      mediaRuns.inc({ kind, outcome });
      mediaSeconds.observe({ kind }, seconds);
    },
    uploadRegistered(type, bytes) {
      uploads.inc({ type });
      uploadBytes.inc({ type }, bytes);
    },
    counterOnScrape(name, help, read) {
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    },
    gaugeOnScrape(name, help, labelNames, read) {
      new Gauge({
        name,
        help,
        labelNames: [...labelNames],
        registers: [registry],
        async collect() {
          // Labels not seen in this read (a kind with no job left) must not keep their old value.
          this.reset();
          await read((labels, value) => this.set(labels, value));
        },
      });
    },
  };
}
