import { manifestFileName } from '@/domain/asset-checksum.ts';
import { withCsvBom } from '@/domain/csv.ts';
import { DownloadButton } from '@/shared/media/project-downloads.tsx';
import { saveBlob } from '@/shared/media/start-download.ts';
import { fetchAssetManifest } from '../api/asset-manifest.ts';

/** Issue 35: beside the raw zip, its manifest: each file's path in the zip, size, CRC-32 and whether it is verified. */
export function ManifestButton({ projectId }: { projectId: number }) {
  return (
    <DownloadButton
      label="Download manifest (CSV)"
      download={async () =>
        saveBlob(new Blob([withCsvBom(await fetchAssetManifest(projectId))], { type: 'text/csv;charset=utf-8' }), manifestFileName(projectId))
      }
    />
  );
}
