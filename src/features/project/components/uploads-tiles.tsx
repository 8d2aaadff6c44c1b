import type { Asset } from '@/domain/contract/uploads.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import { formatSpeed, formatTimeLeft, type AcceptKind } from '@/domain/uploads.ts';
import type { UploadItemView } from '@/shared/uploads/upload-client.ts';
import { useUploadItem } from '@/shared/uploads/use-uploads.ts';
import { Icon } from '@/ui/icons.tsx';
import { ProgressFill } from '@/ui/progress-fill.tsx';

/** One line on where an upload stands. */
export function uploadStatusLine(item: UploadItemView): string {
  if (item.status === 'done') return item.reused ? 'Already stored: nothing sent' : 'Uploaded';
  if (item.status === 'incomplete') return item.error ?? 'Incomplete';
  if (item.held) return `Paused at ${item.percent}%`;
  if (item.paused) return `Paused at ${item.percent}% — waiting for the connection`;
  if (item.status === 'queued') return item.loaded > 0 ? `Waiting to resume at ${item.percent}%` : 'Waiting to start';
  const speed = item.speed > 0 ? ` · ${formatSpeed(item.speed)} · ${formatTimeLeft(item.secondsLeft)}` : '';
  return `${formatFileSize(item.loaded)} of ${formatFileSize(item.size)}${speed}`;
}

/** Issue 35: a zone shows at most this many uploads as tiles; the others are counted (the uploads panel lists every one). */
export const PENDING_TILES_SHOWN = 12;

/**
 * The uploads a zone shows as tiles: all of a few; of a card's hundreds, those waiting for the
 * person first (a file to pick again, a permission, a refusal), then those going, then the rest.
 */
export function pendingTilesShown(pending: readonly UploadItemView[]): { shown: UploadItemView[]; more: number } {
  if (pending.length <= PENDING_TILES_SHOWN) return { shown: [...pending], more: 0 };
  const rank = (item: UploadItemView) => (item.refused || item.status === 'incomplete' ? 0 : item.status === 'uploading' ? 1 : 2);
  const shown = [...pending].sort((a, b) => rank(a) - rank(b)).slice(0, PENDING_TILES_SHOWN);
  return { shown, more: pending.length - shown.length };
}

/** A registered asset: preview (image, or the clip's first frames), name, size, download and delete. */
export function AssetTile({
  asset,
  kind,
  locked,
  onPreview,
  onDelete,
}: {
  asset: Asset;
  kind: AcceptKind;
  locked: boolean;
  onPreview: () => void;
  onDelete: () => void;
}) {
  const src = asset.previewUrl ?? asset.url;
  return (
    <article className="asset-tile" data-asset-id={asset.id} data-testid="asset-tile">
      <button type="button" className="asset-thumb" onClick={onPreview} aria-label={`Preview ${asset.name}`}>
        {src && kind === 'image' && <img src={src} alt="" loading="lazy" />}
        {src && kind === 'video' && <video src={`${src}#t=0.5`} preload="metadata" muted playsInline tabIndex={-1} />}
        {!src && <Icon name={kind === 'image' ? 'image' : 'video'} size={28} />}
        {kind === 'video' && (
          <span className="asset-play" aria-hidden>
            <Icon name="play" size={14} />
          </span>
        )}
      </button>
      <div className="asset-meta">
        <FolderAndName folder={asset.folder} name={asset.name} />
        <span className="asset-size">{formatFileSize(asset.size)}</span>
      </div>
      <div className="asset-actions">
        {asset.url && (
          <a className="icon-action" href={asset.url} download={asset.name} title="Download the original" aria-label={`Download ${asset.name}`}>
            <Icon name="download" size={16} />
          </a>
        )}
        <button
          type="button"
          className="icon-action danger"
          onClick={onDelete}
          disabled={locked}
          title={locked ? 'Files are locked outside assembly' : 'Delete'}
          aria-label={`Delete ${asset.name}`}
        >
          <Icon name="trash" size={16} />
        </button>
      </div>
    </article>
  );
}

/**
 * An upload still queued, running or incomplete: shown in the list with id -1 (C§3). The
 * section hands over the upload as it last changed state; the tile follows its progress itself.
 */
export function PendingTile({ upload, kind, onResume, onRemove }: { upload: UploadItemView; kind: AcceptKind; onResume: () => void; onRemove: () => void }) {
  const item = useUploadItem(upload.uid) ?? upload;
  const incomplete = item.status === 'incomplete';
  // Refused by the server: its reason, no progress and no resume (the same bytes get the same answer), only Remove.
  const refused = item.refused;
  const state = refused ? 'refused' : incomplete ? 'incomplete' : item.paused ? 'paused' : item.status;
  const canResume = incomplete && !refused;
  return (
    <article
      className={`asset-tile pending state-${state}`}
      data-asset-id={-1}
      data-testid="pending-tile"
      data-upload-status={item.status}
      data-refused={refused ? 'true' : undefined}
      aria-label={`${item.name}: ${refused ? 'refused. ' : ''}${uploadStatusLine(item)}`}
    >
      <div className="asset-thumb pending-thumb">
        {!refused && (
          <svg className="progress-ring" viewBox="0 0 44 44" aria-hidden>
            <circle cx="22" cy="22" r="19" className="ring-track" />
            <circle cx="22" cy="22" r="19" className="ring-value" style={{ strokeDasharray: `${(item.percent / 100) * 119.4} 119.4` }} />
          </svg>
        )}
        <span className="pending-percent" data-testid="pending-percent">
          {refused ? (
            <span className="pending-refused">
              <Icon name="alert" size={18} /> Refused
            </span>
          ) : incomplete ? (
            <Icon name={item.needs ? 'folder' : 'resume'} size={18} />
          ) : item.paused ? (
            <Icon name={item.held ? 'pause' : 'offline'} size={18} />
          ) : (
            `${item.percent}%`
          )}
        </span>
        <span className="pending-kind" aria-hidden>
          <Icon name={kind === 'image' ? 'image' : 'video'} size={14} />
        </span>
      </div>
      <div className="asset-meta">
        <FolderAndName folder={item.folder} name={item.name} />
        <span className={`asset-size ${incomplete ? 'is-error' : ''}`} data-testid="pending-status">
          {uploadStatusLine(item)}
        </span>
        {!refused && (
          <span className="mini-progress" aria-hidden>
            <ProgressFill percent={item.percent} />
          </span>
        )}
      </div>
      <div className="asset-actions">
        {canResume && (
          <button type="button" className="btn btn-small btn-secondary" onClick={onResume} data-testid="resume-upload">
            {item.needs === 'file' ? 'Select file' : item.needs === 'permission' ? 'Allow access' : 'Resume'}
          </button>
        )}
        {refused ? (
          <button type="button" className="btn btn-small btn-secondary" onClick={onRemove} data-testid="dismiss-upload" aria-label={`Remove ${item.name}`}>
            Remove
          </button>
        ) : (
          <button
            type="button"
            className="icon-action"
            onClick={onRemove}
            title={incomplete ? 'Remove' : 'Cancel upload'}
            aria-label={`${incomplete ? 'Remove' : 'Cancel'} ${item.name}`}
          >
            <Icon name="close" size={16} />
          </button>
        )}
      </div>
    </article>
  );
}

/** A file's name, with the folder it sat in when it came in a dropped folder (issue 35) above it. */
function FolderAndName({ folder, name }: { folder: string | null; name: string }) {
  return (
    <>
      {folder && (
        <span className="asset-folder" title={folder}>
          {folder}/
        </span>
      )}
      <span className="asset-name" title={name}>
        {name}
      </span>
    </>
  );
}
