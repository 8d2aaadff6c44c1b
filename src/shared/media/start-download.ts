/** Starts the browser's own download of `url` (it carries Content-Disposition: attachment). */
export function startDownload(url: string, name?: string): void {
  const a = document.createElement('a');
  a.href = url;
  if (name) a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Saves bytes made or read by the page as a file named `name`: the browser's own download of an
 * object URL, freed a minute later (the download has taken the bytes by then).
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  startDownload(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
