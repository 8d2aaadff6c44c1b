import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import type { Asset } from '@/domain/contract/uploads.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import type { AssetType } from '@/domain/uploads.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { listAssets } from '@/shared/uploads/api/list-assets.ts';
import { useUploads } from '@/shared/uploads/use-uploads.ts';
import { Icon } from '@/ui/icons.tsx';
import { UploadsPopup } from './uploads-popup.tsx';
import { UploadsSection } from './uploads-section.tsx';

/** What the project page needs to know of the assets to allow "Send to editing" (C§5). */
export interface AssetState {
  /** An upload of this project is queued or running. */
  uploading: boolean;
  /** Interview or b-roll clips whose upload did not finish. */
  incompleteClips: number;
  /** Registered assets of the project (null while loading). */
  assetCount: number | null;
}

interface Props {
  project: Project;
  /** Assets are locked outside OPENED (C§4). */
  locked: boolean;
  onStateChange: (state: AssetState) => void;
  /** Bumped by Send to editing when clips did not finish uploading: their zones say so (C§5). */
  clipsCheck?: number;
}

/** C§2 order: interview clips, B-roll clips, image assets. */
const SECTIONS: AssetType[] = ['INTERVIEW_CLIP', 'BROLL_CLIP', 'ASSET'];

/**
 * Interview clips, B-roll clips and image assets of the project (C§2): an upload zone each,
 * the registered files with previews, uploads still running or incomplete (id -1), delete
 * and delete-all, and the pending-uploads popup. Uploads themselves run in the upload worker.
 */
export function AssetSections({ project, locked, onStateChange, clipsCheck = 0 }: Props) {
  const uploads = useUploads();
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const status = project.status.name;

  const load = useCallback(async () => {
    try {
      setAssets(await listAssets(project.id));
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error));
    }
  }, [project.id]);
  useEffect(() => void load(), [load]);
  // A list that failed to load while offline is loaded again when the network is back.
  const wasOnline = useRef(uploads.online);
  useEffect(() => {
    if (uploads.online && !wasOnline.current) void load();
    wasOnline.current = uploads.online;
  }, [uploads.online, load]);

  const mine = useMemo(() => uploads.items.filter((item) => item.projectId === project.id && item.uploadType === 'asset'), [uploads.items, project.id]);
  // A finished upload is registered: reload the list to show it as an asset.
  const finished = mine.filter((item) => item.status === 'done').map((item) => item.uid).join(',');
  useEffect(() => {
    if (finished) void load();
  }, [finished, load]);

  const uploading = mine.some((item) => item.status === 'queued' || item.status === 'uploading');
  const incompleteClips = mine.filter((item) => item.status === 'incomplete' && item.type !== 'ASSET').length;
  const assetCount = assets ? assets.length : null;
  useEffect(() => onStateChange({ uploading, incompleteClips, assetCount }), [onStateChange, uploading, incompleteClips, assetCount]);

  const total = (assets ?? []).reduce((sum, asset) => sum + asset.size, 0);

  return (
    <section className="asset-sections" aria-label="Footage and images">
      <header className="asset-sections-head">
        <div>
          <h2>Footage and images</h2>
          <p className="muted">
            {assets === null ? 'Loading your files…' : assets.length === 0 ? 'Nothing uploaded yet.' : `${assets.length} ${assets.length === 1 ? 'file' : 'files'} · ${formatFileSize(total)}.`}
            {/* Locked sections take no uploads: only open ones say how uploads work. */}
            {!locked && ' Uploads go straight to secure storage and pick up where they stopped if the connection drops or the page reloads.'}
          </p>
        </div>
        {locked && (
          <span className="asset-lock-note">
            <Icon name="lock" size={16} />
            Locked while the project is {status === 'APPROVED' || status === 'ARCHIVED' ? 'finished' : status === 'IN_REVIEW' ? 'in review' : 'with the editors'}
          </span>
        )}
      </header>
      {loadError && (
        <div className="form-error" role="alert">
          {loadError}{' '}
          <button type="button" className="link-button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {SECTIONS.map((type) => (
        <UploadsSection
          // A new status starts the section afresh: approving collapses it at once (C§4).
          key={`${type}-${status}`}
          project={project}
          type={type}
          locked={locked}
          assets={assets === null ? null : assets.filter((asset) => asset.type.name === type)}
          pending={mine.filter((item) => item.type === type && item.status !== 'done')}
          initiallyCollapsed={status === 'APPROVED'}
          clipsCheck={clipsCheck}
          onChanged={load}
        />
      ))}
      <UploadsPopup snapshot={uploads} />
    </section>
  );
}
