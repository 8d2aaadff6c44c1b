import type { FastifyInstance } from 'fastify';
import { mediaTools, toolsAvailable } from './ffmpeg.ts';
import { announceEndedPiece, mediaHandlers, registerMediaWaker, runnableKinds } from './pipeline.ts';
import { startRunner } from './runner.ts';

const TOOLS_RECHECK_MS = 60_000;

/** MEDIA_CONCURRENCY: media jobs one instance runs at once (0 turns the worker off). */
export function mediaConcurrency(env: Record<string, string | undefined> = process.env): number {
  const raw = env.MEDIA_CONCURRENCY;
  if (raw === undefined || raw === '') return 1;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 16) throw new Error(`MEDIA_CONCURRENCY must be a whole number from 0 to 16 (got "${raw}")`);
  return value;
}

let toolsState: 'unknown' | 'available' | 'missing' = 'unknown';

/** Whether ffmpeg was found by this process's media worker ('unknown' before it looked). */
export function ffmpegState(): 'unknown' | 'available' | 'missing' {
  return toolsState;
}

/**
 * The media worker of this instance: runs queued media jobs while ffmpeg is on the PATH. Without
 * ffmpeg it claims only the assets' checksums, which need none (the other jobs wait, the UI says
 * the media is being processed) and looks again every minute. Started and stopped by the jobs
 * plugin (server/plugins/jobs.ts), which reads `concurrency` (mediaConcurrency) when the app is
 * built. Returns a stop function.
 */
export function startMediaWorker(app: FastifyInstance, concurrency: number): () => Promise<void> {
  if (concurrency === 0) return async () => undefined;
  const tools = mediaTools();
  let available = false;
  let stopped = false;
  const check = async () => {
    const now = await toolsAvailable(tools);
    if (now !== available || toolsState === 'unknown') {
      if (now) app.log.info({ ffmpeg: tools.ffmpeg }, 'media worker: ffmpeg found, media jobs run');
      else app.log.warn({ ffmpeg: tools.ffmpeg }, 'media worker: ffmpeg not found; media jobs but checksums wait until it is installed');
    }
    available = now;
    toolsState = now ? 'available' : 'missing';
    if (now) runner.wake();
  };
  const runner = startRunner({
    db: app.ctx.db,
    handlers: mediaHandlers(app.ctx, tools),
    runnableKinds: () => runnableKinds(available),
    concurrency,
    log: app.log,
    onFinished: (kind, outcome, seconds, job) => {
      app.metrics.mediaJobFinished(kind, outcome, seconds);
      if (outcome !== 'retry') void announceEndedPiece(app.ctx, job);
    },
  });
  registerMediaWaker(app.ctx, () => runner.wake());
  void check();
  const timer = setInterval(() => {
    if (!stopped && !available) void check();
  }, TOOLS_RECHECK_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await runner.stop();
  };
}
