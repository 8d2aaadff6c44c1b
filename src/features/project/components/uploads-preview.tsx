import type { Asset } from '@/domain/contract/uploads.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import type { AcceptKind } from '@/domain/uploads.ts';
import { Modal } from '@/ui/modal.tsx';

/** Preview of one asset through its short-lived storage address (video streamed with ranges). */
export function UploadsPreview({ asset, kind, onClose }: { asset: Asset; kind: AcceptKind; onClose: () => void }) {
  const src = asset.previewUrl ?? asset.url;
  return (
    <Modal title={asset.name} onClose={onClose} width={920}>
      <div className="asset-preview">
        {!src && <p className="muted">This file cannot be previewed.</p>}
        {src && kind === 'video' && <video src={src} controls autoPlay preload="metadata" data-testid="asset-preview-video" />}
        {src && kind === 'image' && <img src={src} alt={asset.name} />}
      </div>
      <p className="asset-preview-meta">
        {formatFileSize(asset.size)} · uploaded {new Date(asset.createdAt).toLocaleString()}
        {asset.url && (
          <>
            {' · '}
            <a href={asset.url} download={asset.name}>
              Download the original
            </a>
          </>
        )}
      </p>
    </Modal>
  );
}
