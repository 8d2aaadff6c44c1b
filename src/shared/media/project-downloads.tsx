import { useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import type { ZipKind } from '@/domain/media.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { plural } from '@/lib/format.ts';
import { downloadBriefPdf } from '@/shared/media/brief-pdf.ts';
import { DownloadCancelled, downloadProjectZip, type ZipDownloadProgress } from '@/shared/media/zip-download.ts';
import { Button } from '@/ui/button.tsx';
import { ProgressFill } from '@/ui/progress-fill.tsx';

/** What the bar says before the first byte is written (issue 12: feedback from the click on). */
function phaseText(progress: ZipDownloadProgress): string | null {
  if (progress.phase === 'preparing') return progress.target === 'server' ? 'Asking the server for the zip…' : 'Preparing the list of files…';
  if (progress.phase === 'starting') {
    return progress.target === 'stream'
      ? `Starting the download of ${plural(progress.totalFiles, 'file')} in your browser's downloads…`
      : `Starting to write ${plural(progress.totalFiles, 'file')}…`;
  }
  return null;
}

/** A progress bar of a download made on this device. */
export function DownloadProgressBar({ label, progress }: { label: string; progress: ZipDownloadProgress }) {
  const phase = phaseText(progress);
  return (
    <div
      className="download-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress.percent)}
      aria-valuetext={phase ?? undefined}
    >
      <div className={`download-progress-track ${phase ? 'is-pending' : ''}`}>
        <ProgressFill className="download-progress-fill" percent={progress.percent} />
      </div>
      <span className="download-progress-text" data-testid="zip-download-progress">
        {phase ?? (
          <>
            {progress.files} / {progress.totalFiles} files · {formatFileSize(progress.bytes)}
            {progress.totalBytes ? ` of ${formatFileSize(progress.totalBytes)}` : ''} · {Math.round(progress.percent)}%
            {progress.target === 'stream' ? " · saving to your browser's downloads" : ''}
          </>
        )}
      </span>
    </div>
  );
}

const LABELS: Record<ZipKind, string> = { raw: 'Download raw zip', proxy: 'Download proxy zip' };

/**
 * A§2 assets panel: "download proxy" and "download raw zip", with a progress bar. The proxy zip
 * is built on this device and streamed to disk; the raw zip is streamed by the server into the
 * browser's downloads, which show its progress (see src/shared/media/zip-download.ts).
 */
export function ZipDownloadButtons({ projectId, kinds = ['proxy', 'raw'] }: { projectId: number; kinds?: ZipKind[] }) {
  const [running, setRunning] = useState<ZipKind | null>(null);
  const [progress, setProgress] = useState<ZipDownloadProgress | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'done'; text: string } | null>(null);
  const start = async (kind: ZipKind) => {
    setRunning(kind);
    setMessage(null);
    setProgress({ phase: 'preparing', target: null, files: 0, totalFiles: 0, bytes: 0, totalBytes: null, percent: 0, current: null });
    try {
      const result = await downloadProjectZip(projectId, kind, setProgress);
      setMessage({
        kind: 'done',
        text:
          result.target === 'server'
            ? `${result.name} (${plural(result.files, 'file')}, ${formatFileSize(result.bytes)}) is downloading: your browser's downloads show its progress.`
            : `${result.name}: ${plural(result.files, 'file')}${result.skipped ? `, ${result.skipped} without a proxy yet` : ''}.`,
      });
    } catch (error) {
      if (!(error instanceof DownloadCancelled))
        setMessage({ kind: 'error', text: error instanceof Error && !('status' in error) ? error.message : errorMessage(error) });
    } finally {
      setRunning(null);
    }
  };
  return (
    <div className="zip-downloads">
      <div className="zip-downloads-buttons">
        {kinds.map((kind) => (
          // Busy until the bytes flow; from then on the bar says what happens (a spinner turning
          // for the whole download redrew the page sixty times a second, issue 14).
          <Button
            key={kind}
            variant="secondary"
            busy={running === kind && progress?.phase !== 'writing'}
            disabled={running !== null}
            onClick={() => void start(kind)}
          >
            {LABELS[kind]}
          </Button>
        ))}
      </div>
      {running && progress && <DownloadProgressBar label={LABELS[running]} progress={progress} />}
      {message && (
        <p
          className={message.kind === 'error' ? 'form-error' : 'download-done'}
          role={message.kind === 'error' ? 'alert' : 'status'}
          data-testid="zip-download-message"
        >
          {message.text}
        </p>
      )}
    </div>
  );
}

/** A button that makes or fetches a file and saves it, busy meanwhile, saying why when it cannot. */
export function DownloadButton({ label, download }: { label: string; download: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button
        variant="secondary"
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await download();
          } catch (e) {
            setError(e instanceof Error && !('status' in e) ? e.message : errorMessage(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </Button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** A§2 brief panel: "download brief" → brief.pdf. */
export function BriefPdfButton({ project }: { project: Project }) {
  return <DownloadButton label="Download brief" download={() => downloadBriefPdf(project)} />;
}
