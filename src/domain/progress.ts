/**
 * How often a worker moving bytes (uploads, zips) tells the page how far they got; a change of
 * state goes at once. Twice a second is what a person follows on a bar and a "time left" (Uppy
 * throttles its progress to the same), and each report costs the page a render and a repaint
 * (issue 14: at five a second they were most of the renderer's work during an upload).
 */
export const PROGRESS_EVERY_MS = 500;
