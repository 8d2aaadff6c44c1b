import { useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '@/domain/contract/review.ts';
import { withCsvBom } from '@/domain/csv.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { saveBlob } from '@/shared/media/start-download.ts';
import { exportComments } from './api/export-comments.ts';
import { exportFile } from './review-logic.ts';

const LABELS: Record<ExportFormat, string> = { csv: 'CSV', edl: 'EDL', fcpxml: 'FCPXML', pdf: 'PDF' };
/** What a button makes: markers for the editing application, or the comments to print (with a picture of each frame). */
const ACTION = (format: ExportFormat) => (format === 'pdf' ? 'Export comments as PDF with pictures of the frames' : `Export markers as ${LABELS[format]}`);

/** Staff: the version's markers for the editing application, or its comments as a printable PDF, saved as a file. */
export function ExportMarkers({ projectId, projectName, version }: { projectId: number; projectName: string; version: number }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    setError(null);
    try {
      const body = await exportComments(projectId, version, format);
      const file = exportFile(projectName, version, format);
      // Read as text, the CSV lost its BOM on the way (Excel needs it to read UTF-8).
      saveBlob(new Blob([format === 'csv' && typeof body === 'string' ? withCsvBom(body) : body], { type: file.type }), file.name);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="export-markers" data-testid="export-markers">
      <span className="muted-label">Export comments:</span>
      {EXPORT_FORMATS.map((format, index) => (
        <span key={format}>
          {index > 0 && <span className="muted"> · </span>}
          <button
            type="button"
            className="link-button"
            aria-label={ACTION(format)}
            title={ACTION(format)}
            disabled={busy !== null}
            aria-busy={busy === format}
            onClick={() => void run(format)}
          >
            {/* The PDF cuts a picture of every commented frame: it takes a moment. */}
            {busy === format && format === 'pdf' ? 'PDF…' : LABELS[format]}
          </button>
        </span>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
