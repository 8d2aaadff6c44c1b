import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import type { Asset } from '@/domain/contract/uploads.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import { CREDIT_MESSAGES } from '@/domain/messages.ts';
import { NO_MEMORY_MESSAGE_MS } from '@/ui/constants.ts';
import { ACCEPT_OF_TYPE, ASSET_TYPE_LABELS, UPLOAD_MESSAGES, acceptAttribute, canDeleteAllAssets, type AssetType } from '@/domain/uploads.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { NEEDS_CONNECTION, useOffline } from '@/lib/connectivity.ts';
import { deleteAllAssets } from '@/shared/uploads/api/delete-all-assets.ts';
import { deleteAsset } from '@/shared/uploads/api/delete-asset.ts';
import { folderDropSummary, sortCardFiles } from '@/domain/camera-card.ts';
import { canPickHandles, entriesFromDrop, entriesFromFolderPick, pickWithHandles } from '@/shared/uploads/file-pick.ts';
import {
  cancelUpload,
  dismissUpload,
  enqueueUploads,
  grantAndResume,
  resumeWithFile,
  retryUpload,
  warmUploads,
  type EnqueueResult,
  type UploadItemView,
} from '@/shared/uploads/upload-client.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { Icon } from '@/ui/icons.tsx';
import { UploadsPreview } from './uploads-preview.tsx';
import { AssetTile, PendingTile, pendingTilesShown } from './uploads-tiles.tsx';

interface Props {
  project: Project;
  type: AssetType;
  locked: boolean;
  /** Registered assets of this type (null while loading). */
  assets: Asset[] | null;
  /** Uploads of this type still queued, running or incomplete. */
  pending: UploadItemView[];
  /** C§4: approved projects collapse the asset sections. */
  initiallyCollapsed: boolean;
  onChanged: () => Promise<void>;
  /** Bumped by Send to editing when clips did not finish uploading (C§5: said on this zone). */
  clipsCheck: number;
}

const HINTS: Record<AssetType, string> = {
  INTERVIEW_CLIP: 'People on camera: interviews, testimonials, talking heads.',
  BROLL_CLIP: 'Supporting footage: places, products, people at work.',
  ASSET: 'Logos, photos and graphics for the edit.',
};

/** What a folder with no clip in it queues. */
const NOTHING_QUEUED: EnqueueResult = { accepted: [], resumed: [], rejected: [], refused: null };

type Confirm = { kind: 'delete'; asset: Asset } | { kind: 'delete-all' } | { kind: 'cancel'; item: UploadItemView };

/** One asset section (C§2): header with delete-all, the upload zone, the files and the uploads still running. */
export function UploadsSection({ project, type, locked, assets, pending, initiallyCollapsed, onChanged, clipsCheck }: Props) {
  const kind = ACCEPT_OF_TYPE[type];
  // Offline, new files cannot be registered with the server: the zone waits for the network
  // (uploads already queued keep going by themselves when it returns).
  const offline = useOffline();
  const [open, setOpen] = useState(!initiallyCollapsed);
  const [notice, setNotice] = useState<string | null>(null);
  /** Issue 35: what the last folder dropped or picked gave ("132 clips queued, 41 camera files skipped"). */
  const [folderSummary, setFolderSummary] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [preview, setPreview] = useState<Asset | null>(null);
  const [repickUid, setRepickUid] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const repick = useRef<HTMLInputElement>(null);
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const label = ASSET_TYPE_LABELS[type];
  const files = assets ?? [];
  const size = files.reduce((sum, asset) => sum + asset.size, 0);
  const deleteAllAllowed = canDeleteAllAssets(project.status.name) && files.length > 0;

  useEffect(
    () => () => {
      if (noticeTimer.current) clearTimeout(noticeTimer.current);
    },
    [],
  );
  useEffect(() => {
    if (!locked) warmUploads();
  }, [locked]);

  // C§5: "incomplete clips" shows on the interview / b-roll zone that holds them, opened and scrolled to.
  const section = useRef<HTMLDivElement>(null);
  // A refused upload is not an unfinished clip: nothing of it is stored and nothing can finish it (it only waits to be removed).
  const incompleteHere = type !== 'ASSET' && pending.some((item) => item.status === 'incomplete' && !item.refused);
  const showIncomplete = clipsCheck > 0 && incompleteHere;
  useEffect(() => {
    if (clipsCheck === 0 || !incompleteHere) return;
    setOpen(true);
    section.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [clipsCheck, incompleteHere]);

  /** C§5: refusals show on the zone for 3 s. */
  const flash = (text: string) => {
    setNotice(text);
    if (noticeTimer.current) clearTimeout(noticeTimer.current);
    noticeTimer.current = setTimeout(() => setNotice(null), NO_MEMORY_MESSAGE_MS);
  };

  const add = async (entries: Parameters<typeof enqueueUploads>[0]) => {
    if (locked || offline || entries.length === 0) return;
    // Issue 35: from a folder (a camera card), the clips are queued and the rest is skipped and
    // counted, not refused: a card always holds thumbnails and sidecars beside its clips.
    const fromFolder = entries.some((entry) => entry.relativePath);
    const { clips, camera, other } = fromFolder ? sortCardFiles(kind, entries) : { clips: entries, camera: 0, other: 0 };
    try {
      const result = clips.length > 0 ? await enqueueUploads(clips, { projectId: project.id, type }) : NOTHING_QUEUED;
      if (result.refused === 'no-memory') return flash(UPLOAD_MESSAGES.noMoreMemory);
      const queued = result.accepted.length + result.resumed.length;
      if (fromFolder) setFolderSummary(folderDropSummary({ queued, camera, other: other + result.rejected.length }, kind));
      else if (result.rejected.length) flash(UPLOAD_MESSAGES.notAccepted(kind === 'video' ? 'video' : 'image'));
      // A folder's summary is in the section's body: a folder added to a collapsed section opens it.
      if (queued > 0 || fromFolder) setOpen(true);
    } catch (error) {
      flash(errorMessage(error));
    }
  };

  const browse = async () => {
    if (locked || offline) return;
    const picked = await pickWithHandles(kind);
    if (picked === null) input.current?.click();
    else await add(picked);
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      void browse();
    }
  };

  const onDragOver = (event: DragEvent) => {
    if (locked || offline) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (locked || offline) return;
    void entriesFromDrop(event.dataTransfer).then(add);
  };

  /** Resume an incomplete upload: access again to a kept handle, the file again, or just another try. */
  const resume = async (item: UploadItemView) => {
    if (item.refused) return;
    if (item.needs === 'permission' && (await grantAndResume(item.uid))) return;
    if (item.needs === null) {
      await retryUpload(item.uid);
      return;
    }
    if (canPickHandles()) {
      const picked = await pickWithHandles(kind, false);
      if (picked === null) {
        setRepickUid(item.uid);
        repick.current?.click();
      } else if (picked[0] && !(await resumeWithFile(item.uid, picked[0].file, picked[0].handle as FileSystemFileHandle | undefined))) {
        flash(UPLOAD_MESSAGES.notSameFile);
      }
      return;
    }
    setRepickUid(item.uid);
    repick.current?.click();
  };

  const runConfirm = async (): Promise<string | void> => {
    if (!confirm) return;
    try {
      if (confirm.kind === 'delete') await deleteAsset(project.id, confirm.asset.id);
      else if (confirm.kind === 'delete-all') await deleteAllAssets(project.id, type);
      else await cancelUpload(confirm.item.uid);
      if (confirm.kind !== 'cancel') await onChanged();
    } catch (error) {
      return errorMessage(error);
    }
  };

  const count = files.length + pending.length;
  const pendingTiles = pendingTilesShown(pending);
  const refusedCount = pending.filter((item) => item.refused).length;
  const incompleteCount = pending.filter((item) => item.status === 'incomplete').length - refusedCount;

  return (
    <div
      ref={section}
      className={`card upload-section ${open ? 'is-open' : ''}`}
      data-testid={`asset-section-${type}`}
      data-incomplete={incompleteHere ? 'true' : undefined}
    >
      <header className="upload-section-head">
        <button type="button" className="upload-section-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className={`upload-section-icon kind-${kind}`}>
            <Icon name={type === 'INTERVIEW_CLIP' ? 'interview' : type === 'BROLL_CLIP' ? 'video' : 'image'} size={20} />
          </span>
          <span className="upload-section-title">
            <h3>{label}</h3>
            <span className="upload-section-sub">
              {assets === null
                ? 'Loading…'
                : files.length === 0
                  ? 'No files yet'
                  : `${files.length} ${files.length === 1 ? 'file' : 'files'} · ${formatFileSize(size)}`}
              {pending.length - incompleteCount - refusedCount > 0 && ` · ${pending.length - incompleteCount - refusedCount} uploading`}
              {incompleteCount > 0 && ` · ${incompleteCount} incomplete`}
              {refusedCount > 0 && ` · ${refusedCount} refused`}
            </span>
          </span>
          <Icon name="chevronDown" size={18} className={`upload-section-chevron ${open ? 'open' : ''}`} />
        </button>
        <div className="upload-section-actions">
          {!locked && (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={offline}
              title={offline ? NEEDS_CONNECTION : `Upload every ${kind === 'video' ? 'clip' : 'image'} in a folder, such as a camera card`}
              onClick={() => folderInput.current?.click()}
            >
              <Icon name="cloud" size={16} />
              Add a folder
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-small danger-text"
            disabled={!deleteAllAllowed}
            title={
              deleteAllAllowed ? `Delete every file of ${label.toLowerCase()}` : files.length === 0 ? 'Nothing to delete' : UPLOAD_MESSAGES.deleteAllStatus
            }
            onClick={() => deleteAllAllowed && setConfirm({ kind: 'delete-all' })}
          >
            <Icon name="trash" size={16} />
            Delete all
          </button>
        </div>
      </header>
      {/* Outside the body: the header's Add a folder works while the section is collapsed. */}
      <input
        ref={folderInput}
        type="file"
        hidden
        // A folder, as a camera card is: every file in it, at any depth, with its path.
        {...{ webkitdirectory: '' }}
        data-testid={`folder-input-${type}`}
        onChange={(event) => {
          const chosen = entriesFromFolderPick(event.target.files ?? []);
          event.target.value = '';
          void add(chosen);
        }}
      />

      {open && (
        <div className="upload-section-body">
          <div
            className={`upload-zone ${dragging ? 'is-dragging' : ''} ${locked ? 'is-locked' : ''} ${offline && !locked ? 'is-offline-disabled' : ''} ${notice ? 'has-notice' : ''}`}
            role="button"
            tabIndex={locked || offline ? -1 : 0}
            aria-disabled={locked || offline}
            title={offline && !locked ? NEEDS_CONNECTION : undefined}
            aria-label={locked ? `${label}: locked` : `Upload ${label.toLowerCase()}`}
            data-testid={`upload-zone-${type}`}
            onClick={() => void browse()}
            onKeyDown={onKey}
            onDragOver={onDragOver}
            onDragEnter={onDragOver}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <span className="upload-zone-icon">
              <Icon name={locked ? 'lock' : 'cloud'} size={26} />
            </span>
            {locked ? (
              <span className="upload-zone-text">
                <strong>Uploads are closed</strong>
                <span>Files can be added or removed only while the project is in assembly.</span>
              </span>
            ) : (
              <span className="upload-zone-text">
                <strong>
                  Drop {kind === 'video' ? 'video files' : 'images'} or a whole folder here, or <span className="link-like">browse</span>
                </strong>
                <span>
                  {HINTS[type]} {kind === 'video' ? 'Several files at once; clips of many GB are fine.' : 'Several files at once.'}
                </span>
              </span>
            )}
            {notice && (
              <span className="upload-zone-notice" role="alert">
                {notice}
              </span>
            )}
          </div>
          {folderSummary && (
            <p className="upload-zone-summary" role="status" data-testid={`folder-summary-${type}`}>
              {folderSummary}
            </p>
          )}
          {showIncomplete && (
            <p className="upload-zone-problem" role="alert" data-testid={`incomplete-clips-${type}`}>
              {CREDIT_MESSAGES.incompleteClips}
            </p>
          )}
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={acceptAttribute(kind)}
            data-testid={`upload-input-${type}`}
            onChange={(event) => {
              const chosen = Array.from(event.target.files ?? []).map((file) => ({ file }));
              event.target.value = '';
              void add(chosen);
            }}
          />
          <input
            ref={repick}
            type="file"
            hidden
            accept={acceptAttribute(kind)}
            data-testid={`resume-input-${type}`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              const uid = repickUid ?? pending.find((item) => item.needs === 'file')?.uid;
              if (!file || !uid) return;
              void resumeWithFile(uid, file).then((ok) => !ok && flash(UPLOAD_MESSAGES.notSameFile));
            }}
          />

          {count > 0 ? (
            <div className={`asset-grid kind-${kind}`}>
              {pendingTiles.shown.map((item) => (
                <PendingTile
                  key={item.uid}
                  upload={item}
                  kind={kind}
                  onResume={() => void resume(item)}
                  onRemove={() => (item.refused ? void dismissUpload(item.uid) : setConfirm({ kind: 'cancel', item }))}
                />
              ))}
              {pendingTiles.more > 0 && (
                <div className="asset-tile pending-more" data-testid="pending-more">
                  <strong>{pendingTiles.more} more uploads</strong>
                  <span>The uploads panel lists every one.</span>
                </div>
              )}
              {files.map((asset) => (
                <AssetTile
                  key={asset.id}
                  asset={asset}
                  kind={kind}
                  locked={locked}
                  onPreview={() => setPreview(asset)}
                  onDelete={() => setConfirm({ kind: 'delete', asset })}
                />
              ))}
            </div>
          ) : (
            assets !== null && <p className="upload-section-empty">No {label.toLowerCase()} yet.</p>
          )}
        </div>
      )}

      {preview && <UploadsPreview asset={preview} kind={kind} onClose={() => setPreview(null)} />}
      {confirm && (
        <ConfirmModal
          title={confirm.kind === 'delete' ? 'Delete this file?' : confirm.kind === 'delete-all' ? `Delete all ${label.toLowerCase()}?` : 'Cancel this upload?'}
          confirmLabel={confirm.kind === 'cancel' ? 'Cancel upload' : 'Delete'}
          cancelLabel={confirm.kind === 'cancel' ? 'Keep uploading' : 'Keep'}
          variant="danger"
          onClose={() => setConfirm(null)}
          onConfirm={runConfirm}
        >
          <p>
            {confirm.kind === 'delete' && (
              <>
                “{confirm.asset.name}” ({formatFileSize(confirm.asset.size)}) is removed from the project and from storage.
              </>
            )}
            {confirm.kind === 'delete-all' && (
              <>
                All {files.length} {files.length === 1 ? 'file' : 'files'} ({formatFileSize(size)}) of this section are removed from the project and from
                storage. This cannot be undone.
              </>
            )}
            {confirm.kind === 'cancel' && <>“{confirm.item.name}” stops uploading and what was sent so far is discarded.</>}
          </p>
        </ConfirmModal>
      )}
    </div>
  );
}
