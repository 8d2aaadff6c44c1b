/** Set by public/prerendered/hold-early-submit.js in a prerendered page. */
declare global {
  interface Window {
    cutdeskHeldSubmit?: HTMLFormElement;
  }
}

const TYPED_INPUTS = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number']);

/**
 * Once React has hydrated a prerendered page: what the visitor did before is handed to it.
 * React keeps text typed into a field before hydration on screen but not in its state (a
 * Continue then said "E-mail is required" beside the typed address), so each such field's
 * value is sent to React as an input event; and a form the page held back is sent now.
 */
export function takeOverPrerenderedPage(root: HTMLElement): void {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  for (const input of root.querySelectorAll('input')) {
    // Fields typed into only: a file input cannot be set, a checkbox's value is not what changed.
    if (!TYPED_INPUTS.has(input.type)) continue;
    // React sets defaultValue to what it rendered; a field the visitor typed in differs from it.
    const typed = input.value;
    if (typed === input.defaultValue) continue;
    // React reports a change only when the value differs from the last one it saw: it is told
    // the rendered one (its own setter), then the typed one is put back behind its back.
    input.value = input.defaultValue;
    setValue.call(input, typed);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  root.dataset.hydrated = '';
  const held = window.cutdeskHeldSubmit;
  delete window.cutdeskHeldSubmit;
  // In a task of its own: React renders the typed values first, or the form would be sent empty.
  if (held) setTimeout(() => held.isConnected && held.requestSubmit());
}
