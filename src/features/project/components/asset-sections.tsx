import { useCallback, useEffect } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import type { AssetType } from '@/domain/uploads.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { listAssets } from '@/shared/uploads/api/list-assets.ts';
import type { UploadSnapshot } from '@/shared/uploads/upload-client.ts';
import { sameUploadStates, useUploadsSelection } from '@/shared/uploads/use-uploads.ts';
import { Icon } from '@/ui/icons.tsx';
import { UploadsPopup } from './uploads-popup.tsx';
import { UploadsSection } from './uploads-section.tsx';

/** What the project page needs to know of the assets to allow "Send to editing" (C§5). */
export interface AssetState {
  /** An upload of this project is queued or running. */
  uploading: boolean;
  /** Interview or b-roll clips whose upload did not finish and can still be finished (not refused ones). */
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
  // This project's uploads in their states: progress alone does not draw the sections again
  // (the tiles and the popup follow it themselves).
  const selectMine = useCallback(
    (snapshot: UploadSnapshot) => snapshot.items.filter((item) => item.projectId === project.id && item.uploadType === 'asset'),
    [project.id],
  );
  const mine = useUploadsSelection(selectMine, sameUploadStates);
  const client = useQueryClient();
  const status = project.status.name;
  const query = useQuery({ queryKey: queryKeys.projectAssets(project.id), queryFn: () => listAssets(project.id) });
  const assets = query.data ?? null;
  const loadError = query.error ? errorMessage(query.error) : null;
  const { refetch } = query;

  // A finished upload is registered: the list shows it as an asset (the upload client refreshes the
  // organization's storage; the project's files are this page's to refresh).
  const finished = mine
    .filter((item) => item.status === 'done')
    .map((item) => item.uid)
    .join(',');
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: queryKeys.projectAssets(project.id) });
  }, [finished, client, project.id]);
  // A deleted file frees storage: the top bar and the organization's figures change too.
  const onChanged = useCallback(
    async () =>
      void (await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.projectAssets(project.id) }),
        client.invalidateQueries({ queryKey: queryKeys.organization(project.organization.id) }),
      ])),
    [client, project.id, project.organization.id],
  );

  const uploading = mine.some((item) => item.status === 'queued' || item.status === 'uploading');
  // A refused clip does not count: the server discarded it and nothing can finish it, so it
  // does not hold up Send to editing; its row stays (with the reason) until it is removed.
  const incompleteClips = mine.filter((item) => item.status === 'incomplete' && !item.refused && item.type !== 'ASSET').length;
  const assetCount = assets ? assets.length : null;
  useEffect(() => onStateChange({ uploading, incompleteClips, assetCount }), [onStateChange, uploading, incompleteClips, assetCount]);

  const total = (assets ?? []).reduce((sum, asset) => sum + asset.size, 0);

  return (
    <section className="asset-sections" aria-label="Footage and images">
      <header className="asset-sections-head">
        <div>
          <h2>Footage and images</h2>
          <p className="muted">
            {assets === null
              ? 'Loading your files…'
              : assets.length === 0
                ? 'Nothing uploaded yet.'
                : `${assets.length} ${assets.length === 1 ? 'file' : 'files'} · ${formatFileSize(total)}.`}
            {/* Locked sections take no uploads: only open ones say how uploads work. */}
            {!locked && ' Uploads go straight to secure storage and pick up where they stopped if the connection drops or the page reloads.'}
          </p>
        </div>
        {locked && (
          <span className="asset-lock-note">
            <Icon name="lock" size={16} />
            Locked while the project is{' '}
            {status === 'APPROVED' || status === 'ARCHIVED' ? 'finished' : status === 'IN_REVIEW' ? 'in review' : 'with the editors'}
          </span>
        )}
      </header>
      {loadError && (
        <div className="form-error" role="alert">
          {loadError}{' '}
          <button type="button" className="link-button" onClick={() => void refetch()}>
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
          onChanged={onChanged}
        />
      ))}
      <UploadsPopup />
    </section>
  );
}
