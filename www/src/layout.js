// The layered layout of a channel graph (dagre), as plain data so it can run in a worker.
import dagre from '@dagrejs/dagre';

export function layout({ nodes, edges }) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 46, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of edges) g.setEdge(e.v, e.w, {}, e.name);
  dagre.layout(g);
  const out = { width: g.graph().width, height: g.graph().height, nodes: {}, edges: {} };
  for (const id of g.nodes()) { const n = g.node(id); out.nodes[id] = { x: n.x, y: n.y }; }
  for (const id of g.edges()) out.edges[id.name] = g.edge(id).points;
  return out;
}
