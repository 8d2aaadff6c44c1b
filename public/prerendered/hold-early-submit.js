// A prerendered sign-in page (issue 34) shows its form before the app has taken the page over.
// A form sent before then would be sent by the browser itself: a reload that loses what was
// typed. It is held instead; the app sends it once it has taken over (src/app/hydration.ts).
addEventListener(
  'submit',
  (event) => {
    const root = document.getElementById('root');
    // After 20 s the app has failed to start (a chunk gone after a deploy): the browser sends the
    // form, a reload that gets the current app, rather than the page ignoring every click.
    if (!root || 'hydrated' in root.dataset || performance.now() > 20_000) return;
    event.preventDefault();
    // React may listen already (hydrating): it hears this submit when the app sends it again.
    event.stopImmediatePropagation();
    window.cutdeskHeldSubmit = event.target;
  },
  true,
);
