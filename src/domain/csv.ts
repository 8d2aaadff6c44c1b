/**
 * CSV as people open it (RFC 4180, for Excel, Numbers and LibreOffice): the comments export
 * (server/review/export-markers.ts) and the assets' checksum manifest (issue 35) write it so.
 */

/** The byte order mark: Excel reads a CSV without it in the machine's legacy code page and mangles UTF-8. */
export const CSV_BOM = '\uFEFF';

/**
 * One CSV cell, always quoted (quotes doubled). A cell starting with = + - @, a tab or a carriage
 * return also gets a leading apostrophe: spreadsheets run such a cell as a formula
 * (`=HYPERLINK(...)` in a comment or a file name would become a live link in the editor's Excel).
 * Quoting every cell matters as much: Excel in a locale whose list separator is ";" splits an
 * unquoted `note;=1+1` at the semicolon, and the second half would run as a formula.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A whole document: the BOM, the header (our own fixed words, unquoted), a row per line, CRLF line ends. */
export function csvDocument(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return CSV_BOM + [header.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n') + '\r\n';
}

/**
 * The document with its BOM, once: a page reading the server's CSV as text loses it (the
 * decoder strips a leading BOM), and the file it saves must have it again for Excel.
 */
export function withCsvBom(text: string): string {
  return text.startsWith(CSV_BOM) ? text : CSV_BOM + text;
}
