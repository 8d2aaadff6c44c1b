import { useLayoutEffect, useRef, useState } from 'react';
import { formatFileSize } from '@/domain/bytes.ts';
import { UPLOAD_MESSAGES, formatSpeed, formatTimeLeft, runningProgress } from '@/domain/uploads.ts';
import {
  cancelUpload,
  dismissUpload,
  grantAndResume,
  pauseAllUploads,
  resumeAllUploads,
  resumeWithFile,
  retryUpload,
  type UploadItemView,
} from '@/shared/uploads/upload-client.ts';
import { useUploads } from '@/shared/uploads/use-uploads.ts';
import { Icon } from '@/ui/icons.tsx';
import { ProgressFill } from '@/ui/progress-fill.tsx';
import { WindowedList } from '@/ui/windowed-list.tsx';
import { uploadStatusLine } from './uploads-tiles.tsx';

/** The room the popup takes at the bottom of the window, for the page (src/ui/theme.css, issue 12). */
const POPUP_SPACE = '--uploads-popup-space';
/** The popup's distance from the window's bottom edge, plus a gap above it. */
const POPUP_MARGIN = 24 + 16;

/**
 * The popup sits fixed in the bottom-right corner, over the side column (the brief and its Save
 * button): while it shows, the page gets its height as room at the bottom, and scrolling to a
 * focused field (Tab, scrollIntoView) stops above it (html's scroll-padding-bottom).
 */
function usePageRoom(shown: boolean) {
  const box = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const aside = box.current;
    if (!shown || !aside) return;
    const root = document.documentElement;
    const measure = () => root.style.setProperty(POPUP_SPACE, `${Math.ceil(aside.getBoundingClientRect().height) + POPUP_MARGIN}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(aside);
    return () => {
      observer.disconnect();
      root.style.removeProperty(POPUP_SPACE);
    };
  }, [shown]);
  return box;
}

/** A row's height once the list is windowed (theme.css `.uploads-list.is-windowed .uploads-row`). */
const UPLOAD_ROW_HEIGHT = 56;

/**
 * The pending-uploads popup (C§2): every queued, running, incomplete, refused and finished
 * upload, and, while two or more run, their overall bytes, percent, speed and time left.
 * Collapsing it leaves its header only; closing it hides it until the next upload starts.
 */
export function UploadsPopup() {
  const snapshot = useUploads();
  const [collapsed, setCollapsed] = useState(false);
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const [picking, setPicking] = useState<string | null>(null);
  const [wrongFile, setWrongFile] = useState<string | null>(null);
  const repick = useRef<HTMLInputElement>(null);
  const signature = snapshot.items.map((item) => item.uid).join(',');
  const shown = snapshot.items.length > 0 && closedAt !== signature;
  const box = usePageRoom(shown);

  /** Resume from the popup too (uploads of other projects have no zone on this page). */
  const resume = async (item: UploadItemView) => {
    setWrongFile(null);
    if (item.needs === 'permission' && (await grantAndResume(item.uid))) return;
    if (item.needs === null) {
      await retryUpload(item.uid);
      return;
    }
    setPicking(item.uid);
    repick.current?.click();
  };
  const { items, totals, online, held } = snapshot;
  if (!shown) return null;
  const finished = items.filter((item) => item.status === 'done');
  // The header's figures are those of the uploads still running, like the bars under it.
  const running = runningProgress(items);
  // Refused files are neither done nor to resume: counted apart, never in a percentage.
  const refused = items.filter((item) => item.refused).length;
  const incomplete = items.filter((item) => item.status === 'incomplete').length - refused;
  const title = held
    ? 'Uploads paused'
    : totals.active > 0
      ? `Uploading ${totals.active} ${totals.active === 1 ? 'file' : 'files'}`
      : incomplete > 0
        ? `${incomplete} ${incomplete === 1 ? 'upload needs' : 'uploads need'} attention`
        : refused > 0
          ? `${refused} ${refused === 1 ? 'file was' : 'files were'} refused`
          : 'Uploads complete';

  return (
    <aside ref={box} className={`uploads-popup ${collapsed ? 'is-collapsed' : ''}`} aria-label="Uploads" data-testid="uploads-popup">
      <header className="uploads-popup-head">
        <button
          type="button"
          className="uploads-popup-title"
          onClick={() => setCollapsed(!collapsed)}
          aria-expanded={!collapsed}
          title={collapsed ? 'Show the uploads' : 'Collapse to this bar'}
        >
          <Icon name={totals.active > 0 ? 'cloud' : incomplete > 0 ? 'resume' : refused > 0 ? 'alert' : 'cloud'} size={18} />
          <strong>{title}</strong>
          {totals.active > 0 && (
            <span className="uploads-popup-percent" data-testid="overall-percent">
              {running.percent}%
            </span>
          )}
          <Icon name="chevronDown" size={16} className={`uploads-popup-chevron ${collapsed ? '' : 'open'}`} />
        </button>
        <button
          type="button"
          className="uploads-popup-close"
          aria-label="Close the uploads panel"
          title={totals.active > 0 ? 'Hide (uploads continue)' : 'Close'}
          onClick={() => setClosedAt(signature)}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      {/* With one upload running its row says the same, so the line (and its redraw) waits for a second one. */}
      {totals.active > 1 && !collapsed && (
        <div className="uploads-overall" data-testid="uploads-overall">
          <div
            className="progress-bar"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={running.percent}
            aria-label="Overall upload progress"
          >
            <ProgressFill percent={running.percent} />
          </div>
          <p>
            {formatFileSize(running.loaded)} of {formatFileSize(running.size)}
            {held ? ' · paused' : online ? ` · ${formatSpeed(totals.speed)} · ${formatTimeLeft(totals.secondsLeft)}` : ''}
          </p>
        </div>
      )}
      {/* Issue 35: a card of hundreds of clips is paused and resumed as one. */}
      {!collapsed && (held || totals.active > 1) && (
        <div className="uploads-all">
          <button type="button" className="link-button" data-testid="uploads-pause-all" onClick={() => void (held ? resumeAllUploads() : pauseAllUploads())}>
            {held ? 'Resume all' : 'Pause all'}
          </button>
        </div>
      )}
      {!online && (
        <p className="uploads-offline" role="status">
          <Icon name="offline" size={16} /> You are offline. Uploads resume by themselves when the connection is back.
        </p>
      )}
      {!collapsed && (
        <WindowedList
          className="uploads-list"
          label="Uploads"
          items={items}
          rowHeight={UPLOAD_ROW_HEIGHT}
          renderRow={(item, index) => (
            <li
              aria-setsize={items.length}
              aria-posinset={index + 1}
              key={item.uid}
              className={`uploads-row state-${item.refused ? 'refused' : item.status === 'queued' && item.paused ? 'paused' : item.status}`}
              data-testid="upload-row"
              data-status={item.status}
              data-refused={item.refused ? 'true' : undefined}
            >
              <span className="uploads-row-icon">
                <Icon name={item.status === 'done' ? 'cloud' : item.refused ? 'alert' : item.type === 'ASSET' ? 'image' : 'video'} size={16} />
              </span>
              <span className="uploads-row-text">
                <span className="uploads-row-name" title={item.name}>
                  {item.name}
                </span>
                <span className="uploads-row-status">{uploadStatusLine(item)}</span>
                {item.status !== 'done' && !item.refused && (
                  <span className="mini-progress" aria-hidden>
                    <ProgressFill percent={item.percent} />
                  </span>
                )}
              </span>
              <span className="uploads-row-percent" data-testid="upload-row-percent">
                {item.status === 'done' ? '✓' : item.refused ? 'Refused' : `${item.percent}%`}
              </span>
              {item.refused && (
                <button
                  type="button"
                  className="uploads-row-cancel"
                  aria-label={`Remove ${item.name}`}
                  title="Remove"
                  onClick={() => void dismissUpload(item.uid)}
                >
                  <Icon name="close" size={14} />
                </button>
              )}
              {item.status === 'incomplete' && !item.refused && (
                <button
                  type="button"
                  className="uploads-row-cancel"
                  aria-label={`Resume ${item.name}`}
                  title={item.needs === 'file' ? 'Select the file again' : 'Resume'}
                  onClick={() => void resume(item)}
                >
                  <Icon name={item.needs === 'file' ? 'folder' : 'resume'} size={14} />
                </button>
              )}
              {item.status !== 'done' && item.status !== 'incomplete' && (
                <button
                  type="button"
                  className="uploads-row-cancel"
                  aria-label={`Cancel ${item.name}`}
                  title="Cancel"
                  onClick={() => void cancelUpload(item.uid)}
                >
                  <Icon name="close" size={14} />
                </button>
              )}
            </li>
          )}
        />
      )}
      {wrongFile && (
        <p className="uploads-offline" role="alert">
          {wrongFile}
        </p>
      )}
      <input
        ref={repick}
        type="file"
        hidden
        data-testid="popup-resume-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file && picking) void resumeWithFile(picking, file).then((ok) => setWrongFile(ok ? null : UPLOAD_MESSAGES.notSameFile));
        }}
      />
      {!collapsed && finished.length > 0 && (
        <footer className="uploads-popup-foot">
          <button type="button" className="link-button" onClick={() => finished.forEach((item) => void dismissUpload(item.uid))}>
            Clear finished
          </button>
        </footer>
      )}
    </aside>
  );
}
