/**
 * Text placed in HTML, in an element or a quoted attribute: the mails, the server's small pages,
 * the API reference and the prerendered sign-in pages escape it with this one function.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
