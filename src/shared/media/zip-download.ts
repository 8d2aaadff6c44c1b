import * as Comlink from 'comlink';
import { ZIP_FOLDERS, ZIP_MESSAGES, zipFileName, type ZipKind } from '@/domain/media.ts';
import { listAssets } from '@/shared/uploads/api/list-assets.ts';
import { requestDownloadLink } from './api/request-download-link.ts';
import { requestZipLink } from './api/request-zip-link.ts';
import { markBusy, mediaWorker } from './media-worker.ts';
import { DownloadCancelled, chooseSaveTarget, streamDownloadProblem, streamToDownload, type SaveTarget } from './save-target.ts';
import { zipPlan } from '@/domain/zip-plan.ts';

export { DownloadCancelled } from './save-target.ts';

export interface ZipDownloadProgress {
  /**
   * What is happening, shown from the click on (issue 12): listing the files, handing the zip
   * to the save target (the file picked, or the browser's downloads), writing it.
   */
  phase: 'preparing' | 'starting' | 'writing';
  /**
   * Where the zip goes: the file picked in the save dialog, the browser's downloads (`stream`:
   * made here; `server`: streamed by the server, whose progress the browser's downloads show).
   */
  target: 'file' | 'stream' | 'server' | null;
  /** Files written so far, of `totalFiles`. */
  files: number;
  totalFiles: number;
  /** Bytes of file data written so far, of `totalBytes` (null while a proxy's size is unknown). */
  bytes: number;
  totalBytes: number | null;
  /** 0–100, by bytes when sizes are known, else by files. */
  percent: number;
  current: string | null;
}

export interface ZipDownloadResult {
  name: string;
  files: number;
  bytes: number;
  /** Assets left out because their proxy is not ready yet (proxy zips). */
  skipped: number;
  target: 'file' | 'stream' | 'server';
}

export interface ZipDownloadOptions {
  /** Where it goes; by default the save picker when the browser has one, else a streamed download. */
  target?: SaveTarget;
  signal?: AbortSignal;
}

/**
 * Staff "download raw zip" / "download proxy zip": `project-{id}_raw_assets.zip` or
 * `project-{id}_proxy_assets.zip`. The raw zip is streamed by the server from the stored
 * originals into the browser's downloads, at the speed of any download (issue 34); the proxy zip
 * (proxies still being made are skipped) is built on this device by the media worker and
 * streamed to disk. Call it from a click handler (the save picker needs the click). Rejects with
 * DownloadCancelled when the user closes the picker or `signal` aborts.
 */
export async function downloadProjectZip(
  projectId: number,
  kind: ZipKind,
  onProgress: (progress: ZipDownloadProgress) => void,
  options: ZipDownloadOptions = {},
): Promise<ZipDownloadResult> {
  if (kind === 'raw') return downloadServerZip(projectId, onProgress);
  const name = zipFileName(projectId, kind);
  // The picker first, while the click still counts as a user gesture.
  const target = options.target ?? (await chooseSaveTarget(name));
  // Without the save picker the zip streams to the browser's downloads: a browser that cannot
  // take one says so now, before any work (issue 12), not after a silent wait.
  if (target.kind === 'stream') {
    const problem = streamDownloadProblem();
    if (problem) throw new Error(problem);
  }
  const blank = { files: 0, totalFiles: 0, bytes: 0, totalBytes: null, percent: 0, current: null, target: target.kind };
  onProgress({ ...blank, phase: 'preparing' });
  const assets = await listAssets(projectId);
  const { plan, skipped, totalBytes } = zipPlan(assets, kind);
  const totalFiles = plan.filter((entry) => !entry.name.endsWith('/')).length;
  onProgress({ ...blank, totalFiles, totalBytes, phase: 'starting' });
  let last = { files: 0, bytes: 0 };
  const report = Comlink.proxy((progress: { entries: number; bytes: number; current: string | null }) => {
    const files = Math.max(0, progress.entries - ZIP_FOLDERS.length);
    last = { files, bytes: progress.bytes };
    const percent = totalBytes ? (progress.bytes / totalBytes) * 100 : totalFiles ? (files / totalFiles) * 100 : 100;
    onProgress({
      phase: 'writing',
      target: target.kind,
      files,
      totalFiles,
      bytes: progress.bytes,
      totalBytes,
      percent: Math.min(100, Math.round(percent * 10) / 10),
      current: progress.current,
    });
  });
  const linkFor = Comlink.proxy(async (ref: string) => {
    const [id, variant] = ref.split(':') as [string, 'original' | 'proxy'];
    return (await requestDownloadLink(projectId, { assetId: Number(id), variant })).link;
  });
  const worker = mediaWorker();
  const jobId = crypto.randomUUID();
  const abort = () => void worker.cancel(jobId);
  options.signal?.addEventListener('abort', abort, { once: true });
  const done = markBusy();
  try {
    if (target.kind === 'file') {
      await worker.zipToFile(jobId, target.handle, plan, linkFor, report);
    } else {
      // The worker posts the archive's stream to the download service worker itself.
      await streamToDownload(name, (port, protocol) => worker.zipToStream(jobId, Comlink.transfer(port, [port]), protocol, plan, linkFor, report));
    }
  } catch (error) {
    // Cancelled in the browser's downloads (the worker's error is named so), or by `signal`:
    // not a failure to report.
    if ((error as { name?: string }).name === 'DownloadCancelled' || options.signal?.aborted) throw new DownloadCancelled();
    throw error;
  } finally {
    done();
    options.signal?.removeEventListener('abort', abort);
  }
  onProgress({
    phase: 'writing',
    target: target.kind,
    files: totalFiles,
    totalFiles,
    bytes: last.bytes,
    totalBytes: totalBytes ?? last.bytes,
    percent: 100,
    current: null,
  });
  return { name, files: totalFiles, bytes: last.bytes, skipped, target: target.kind };
}

/**
 * The raw zip: the server streams it with its length, so the browser's downloads show its
 * progress, speed and time left, and a plain link starts it (no save picker: the browser's own
 * setting decides where it goes). No byte passes through this page or a worker.
 */
async function downloadServerZip(projectId: number, onProgress: (progress: ZipDownloadProgress) => void): Promise<ZipDownloadResult> {
  onProgress({ phase: 'preparing', target: 'server', files: 0, totalFiles: 0, bytes: 0, totalBytes: null, percent: 0, current: null });
  const zip = await requestZipLink(projectId, { kind: 'raw' });
  // Asked first, so a refusal is said here rather than only as a failed entry in the browser's
  // downloads (three of this person's zips running, the server's limit, an ended session).
  const check = await fetch(zip.link, { method: 'HEAD' });
  if (!check.ok) throw new Error(check.status === 429 ? ZIP_MESSAGES.yoursBusy : check.status === 503 ? ZIP_MESSAGES.serverBusy : ZIP_MESSAGES.linkGone);
  const anchor = document.createElement('a');
  anchor.href = zip.link;
  anchor.download = zip.name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  return { name: zip.name, files: zip.files, bytes: zip.size, skipped: 0, target: 'server' };
}
