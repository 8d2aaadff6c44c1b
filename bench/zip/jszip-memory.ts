/**
 * Child process: the baseline. JSZip's in-memory generation of the same kind of set (the
 * clips fetched into memory, then `generateAsync`), STORE like ours. Prints one JSON line:
 * seconds, bytes, peak RSS, or the error it died of.
 */
import JSZip from 'jszip';

const job = JSON.parse(process.argv[2]!) as { entries: { name: string; url: string }[] };
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
try {
  const zip = new JSZip();
  for (const entry of job.entries) {
    const response = await fetch(entry.url);
    zip.file(entry.name, new Uint8Array(await response.arrayBuffer()), { binary: true, compression: 'STORE' });
  }
  const out = await zip.generateAsync({ type: 'uint8array', compression: 'STORE', streamFiles: false });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  // Is it a zip a reader can open? The end record must point at the central directory right
  // before it. JSZip writes no Zip64 records: past 4 GiB its 32-bit offsets wrap.
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const end = out.length - 22;
  const valid = view.getUint32(end, true) === 0x06054b50 && view.getUint32(end + 16, true) + view.getUint32(end + 12, true) === end;
  const peakRssBytes = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  if (!valid)
    console.log(
      JSON.stringify({
        ok: false,
        seconds,
        bytes: out.length,
        error: 'generated, but the archive is invalid: its 32-bit offsets wrapped (JSZip writes no Zip64)',
        peakRssBytes,
      }),
    );
  else console.log(JSON.stringify({ ok: true, seconds, bytes: out.length, peakRssBytes }));
} catch (error) {
  clearInterval(sample);
  console.log(
    JSON.stringify({
      ok: false,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024),
    }),
  );
  process.exitCode = 1;
}
