// Runs the dagre layout off the main thread, so large channel graphs (300+ nodes) do not freeze
// the page. Message in: {id, nodes: [{id, width, height}], edges: [{v, w, name}]}; message out:
// {id, width, height, nodes: {id: {x, y}}, edges: {name: [{x, y}...]}}.
import { layout } from './layout.js';

self.onmessage = (ev) => {
  self.postMessage({ id: ev.data.id, ...layout(ev.data) });
};
