import { useState } from 'react';
import { manifestFileName } from '@/domain/asset-checksum.ts';
import { withCsvBom } from '@/domain/csv.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { startDownload } from '@/shared/media/start-download.ts';
import { Button } from '@/ui/button.tsx';
import { fetchAssetManifest } from '../api/asset-manifest.ts';

/** Issue 35: beside the raw zip, its manifest: each file's path in the zip, size, CRC-32 and whether it is verified. */
export function ManifestButton({ projectId }: { projectId: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const csv = await fetchAssetManifest(projectId);
      const url = URL.createObjectURL(new Blob([withCsvBom(csv)], { type: 'text/csv;charset=utf-8' }));
      startDownload(url, manifestFileName(projectId));
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" busy={busy} onClick={() => void download()}>
        Download manifest (CSV)
      </Button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
