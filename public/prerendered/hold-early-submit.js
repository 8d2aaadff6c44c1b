// A prerendered sign-in page (issue 34) shows its form before the app has taken the page over.
// A form sent before then would be sent by the browser itself: a reload that loses what was
// typed. It is held instead; the app sends it once it has taken over (src/app/hydration.ts).
addEventListener(
  'submit',
  (event) => {
    const root = document.getElementById('root');
    if (!root || 'hydrated' in root.dataset) return;
    event.preventDefault();
    window.cutdeskHeldSubmit = event.target;
  },
  true,
);
