// Runs the dagre layout off the main thread, so large channel graphs (300+ nodes) do not freeze
// the page. One operation (rpc.js): `layout({nodes: [{id, width, height}], edges: [{v, w, name}]})`
// → `{width, height, nodes: {id: {x, y}}, edges: {name: [{x, y}...]}}`.
import { layout } from './layout.js';
import { serve } from './rpc.js';

serve({ layout });
