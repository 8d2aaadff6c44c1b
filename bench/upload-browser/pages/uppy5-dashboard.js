/**
 * Uppy 5 as a product would ship it: the uppy5 page's uploader with Uppy's own Dashboard
 * (inline) drawing the file, its progress, speed and time left. The bench's file input still
 * hands the file over, so both pages get it the same way.
 */
import { Dashboard } from 'uppy5-bench';
import uppyCss from 'uppy5-bench/style.css?inline';
import { uppy } from './uppy5.js';

const style = document.createElement('style');
style.textContent = uppyCss;
document.head.append(style);
const target = document.createElement('div');
document.body.append(target);
uppy.use(Dashboard, { inline: true, target, hideUploadButton: true, proudlyDisplayPoweredByUppy: false, width: 900, height: 520 });
