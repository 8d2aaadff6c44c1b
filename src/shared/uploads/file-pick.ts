import { IMAGE_EXTENSIONS, VIDEO_EXTENSIONS, type AcceptKind } from '@/domain/uploads.ts';
import type { FileEntry } from '../../../workers/upload-engine.ts';

/**
 * Getting files from the user with their File System Access handles where the browser
 * offers them (Chromium): a kept handle lets an upload resume after a browser restart with
 * one click instead of a new file pick. Elsewhere plain files (input, drop).
 */

type PermissionMode = { mode: 'read' };
interface HandleWithPermission {
  queryPermission?(descriptor: PermissionMode): Promise<PermissionState>;
  requestPermission?(descriptor: PermissionMode): Promise<PermissionState>;
}
interface OpenFilePickerOptions {
  multiple?: boolean;
  excludeAcceptAllOption?: boolean;
  types?: { description: string; accept: Record<string, string[]> }[];
}
type PickerWindow = Window & { showOpenFilePicker?: (options: OpenFilePickerOptions) => Promise<FileSystemFileHandle[]> };
type ItemWithHandle = DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };

export function canPickHandles(): boolean {
  return typeof (window as PickerWindow).showOpenFilePicker === 'function';
}

/** The system file picker with handles; null when unsupported (use an <input type=file>), [] when cancelled. */
export async function pickWithHandles(kind: AcceptKind, multiple = true): Promise<FileEntry[] | null> {
  const picker = (window as PickerWindow).showOpenFilePicker;
  if (!picker) return null;
  try {
    const handles = await picker.call(window, {
      multiple,
      excludeAcceptAllOption: false,
      types: [
        { description: kind === 'video' ? 'Video files' : 'Images', accept: { [`${kind}/*`]: [...(kind === 'video' ? VIDEO_EXTENSIONS : IMAGE_EXTENSIONS)] } },
      ],
    });
    return Promise.all(handles.map(async (handle) => ({ file: await handle.getFile(), handle })));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return [];
    // SecurityError (no user activation, cross-origin frame…): fall back to the input.
    return null;
  }
}

/**
 * Every file under a dropped folder, at any depth, with its path from the dropped folder's parent
 * ("CARD/DCIM/100MSDCF/C0001.MP4"): issue 35, a camera card dropped whole. One level at a time,
 * so a card of hundreds of clips never has them all open at once.
 */
async function filesUnder(entry: FileSystemEntry): Promise<FileEntry[]> {
  const relativePath = entry.fullPath.replace(/^\/+/, '');
  if (entry.isFile) {
    const file = await new Promise<File>((done, fail) => (entry as FileSystemFileEntry).file(done, fail)).catch(() => null);
    return file ? [{ file, relativePath }] : [];
  }
  if (!entry.isDirectory) return [];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const found: FileEntry[] = [];
  // A folder is read in batches (100 entries in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((done, fail) => reader.readEntries(done, fail)).catch(() => []);
    if (batch.length === 0) return found;
    for (const child of batch) found.push(...(await filesUnder(child)));
  }
}

/** The files of a folder picked with the folder input (`webkitdirectory`), with their paths in it. */
export function entriesFromFolderPick(files: FileList | File[]): FileEntry[] {
  return Array.from(files, (file) => ({ file, ...(file.webkitRelativePath && { relativePath: file.webkitRelativePath }) }));
}

/**
 * Files of a drop, with handles where offered, and every file under a dropped folder. All must
 * be asked for during the drop event itself (the items empty afterwards), so this is
 * synchronous up to the promises.
 */
export function entriesFromDrop(transfer: DataTransfer): Promise<FileEntry[]> {
  const pending: Promise<FileEntry | FileEntry[] | null>[] = [];
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry?.isDirectory) {
      pending.push(filesUnder(entry));
      continue;
    }
    const file = item.getAsFile();
    if (!file) continue;
    const handlePromise = (item as ItemWithHandle).getAsFileSystemHandle?.();
    pending.push(
      (handlePromise ?? Promise.resolve(null))
        .then((handle) => (handle && handle.kind === 'file' ? { file, handle: handle as FileSystemFileHandle } : { file }))
        .catch(() => ({ file })),
    );
  }
  if (pending.length === 0) return Promise.resolve(Array.from(transfer.files).map((file) => ({ file })));
  return Promise.all(pending).then((entries) => entries.flat().filter((entry): entry is FileEntry => entry !== null));
}

/** Asks again for read access to a kept handle (needs a click); the file, or null when refused. */
export async function requestHandleAccess(handle: FileSystemFileHandle): Promise<File | null> {
  const withPermission = handle as FileSystemFileHandle & HandleWithPermission;
  try {
    const state = (await withPermission.queryPermission?.({ mode: 'read' })) ?? 'granted';
    if (state !== 'granted' && (await withPermission.requestPermission?.({ mode: 'read' })) !== 'granted') return null;
    return await handle.getFile();
  } catch {
    return null;
  }
}
