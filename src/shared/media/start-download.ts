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
