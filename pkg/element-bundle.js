// The entry of the single-file build (scripts/build-element.mjs → pkg/dist/element/
// olm-upgrade-graph.js, the core's and the picture module's `.wasm` beside it): one ES module
// that is both the page side of `<olm-upgrade-graph>` and, started as a worker by it, the worker (element-worker.js serves as
// soon as it runs in a worker), so a page needs one `<script type="module">` tag and three files.
import { configure } from './element.js';
import './element-worker.js';

if (typeof document !== 'undefined') {
  configure({
    workerUrl: import.meta.url,
    wasmUrl: new URL('./olm_catalog_bg.wasm', import.meta.url),
    pictureWasmUrl: new URL('./olm_graph_picture_bg.wasm', import.meta.url),
  });
}
