// Quick fixes for the findings the client sends with a code-action request, each an operation of
// the npm package's edit engine (`planEdit`), as the native server offers them: the names a fix
// needs (the entry, its channel, the entry to edit) are read from the finding's message and the
// word it points at, the entry's current edges from the package's channel graph. A fix the engine
// refuses, or one whose channel cannot be told, is not offered.
import { documentPackages, packagesFirst } from './hover.mjs';
import { wordAt } from './positions.mjs';

/** The quoted names of a finding's message, in order. */
const quoted = (message) => [...message.matchAll(/"([^"]*)"/g)].map((m) => m[1]);

/** The package (name and graph) that lists bundle `name` (those of `text` first), or null. */
function packageOf(catalog, name, text) {
  for (const pkg of packagesFirst(catalog, documentPackages(text))) {
    const graph = catalog.channelGraph(pkg.name);
    if (graph.bundleChannels[name]) return graph;
  }
  return null;
}

/** The package (graph) whose blobs `text` declares and that has no usable default channel, or null. */
function packageWithoutDefault(catalog, text) {
  for (const pkg of packagesFirst(catalog, documentPackages(text))) {
    const graph = catalog.channelGraph(pkg.name);
    if (!graph.channels.some((c) => c.isDefault)) return graph;
  }
  return null;
}

/** The channel named in `message`, else the only channel listing `bundle`. */
function channelOf(graph, bundle, message) {
  const named = message.match(/channel "([^"]*)"/)?.[1];
  const listing = graph.bundleChannels[bundle] ?? [];
  if (named && listing.includes(named)) return named;
  return listing.length === 1 ? listing[0] : null;
}

/** The `skips` of `bundle` in channel `channel` of `graph`, from the graph's edges. */
function skipsOf(graph, channel, bundle) {
  const c = graph.channels.find((ch) => ch.channel === channel);
  return c ? c.edges.filter((e) => e.to === bundle && e.kind === 'skips').map((e) => e.from) : [];
}

const edges = (graph, channel, bundle, fields) => ({ op: 'setEdges', package: graph.package, channel, bundle, ...fields });

/** Each code's fix: [title, operation] from the finding, the word at it and the catalog; null without one. */
const FIXES = {
  'z-stream-gap'(catalog, d, word, text) {
    const graph = packageOf(catalog, word, text);
    const channel = graph && channelOf(graph, word, d.message);
    const version = graph?.channels.flatMap((c) => c.nodes).find((n) => n.name === word)?.version;
    const m = version?.match(/^(\d+)\.(\d+)\./);
    if (!channel || !m) return null;
    const range = `>=${m[1]}.${m[2]}.0 <${version}`;
    return [`Add skipRange "${range}" to ${word}`, edges(graph, channel, word, { skipRange: range })];
  },
  'entry-without-bundle'(catalog, d, word, text) {
    const graph = packageOf(catalog, word, text);
    return graph && [`Remove the entry ${word}, which has no bundle (re-wire its channels)`, { op: 'removeBundle', package: graph.package, bundle: word }];
  },
  'default-channel-unset'(catalog, d, word, text) {
    const graph = packageWithoutDefault(catalog, text);
    const channel = graph?.channels[0]?.channel;
    return channel ? [`Set the default channel to ${channel}`, { op: 'setDefaultChannel', package: graph.package, channel }] : null;
  },
  'stranded-entry'(catalog, d) {
    const [bundle] = quoted(d.message);
    const graph = packageOf(catalog, bundle, '');
    const channel = graph && channelOf(graph, bundle, d.message);
    const by = d.message.match(/ to the skips of "([^"]*)"$/)?.[1] ?? graph?.channels.find((c) => c.channel === channel)?.head;
    if (!channel || !by) return null;
    return [`Add ${bundle} to the skips of ${by}`, edges(graph, channel, by, { skips: [...skipsOf(graph, channel, by), bundle] })];
  },
  'replaces-skipped'(catalog, d) {
    const [bundle, target, skipper] = quoted(d.message);
    const graph = packageOf(catalog, bundle, '');
    const channel = graph && channelOf(graph, bundle, d.message);
    if (!channel) return null;
    // As the message advises: drop the skip (of the entry itself, or of a newer entry whose
    // replaces chain goes on through it), or replace the older entry that skips the target.
    if (d.message.includes('drop it from the skips of')) {
      const skips = skipsOf(graph, channel, skipper).filter((s) => s !== target);
      return [`Drop ${target} from the skips of ${skipper}`, edges(graph, channel, skipper, { skips })];
    }
    return [`Make ${bundle} replace ${skipper}, which skips ${target}`, edges(graph, channel, bundle, { replaces: skipper })];
  },
  'skip-range-covers-nothing'(catalog, d) {
    const [, bundle] = quoted(d.message);
    const graph = packageOf(catalog, bundle, '');
    const channel = graph && channelOf(graph, bundle, d.message);
    return channel && [`Remove the skipRange of ${bundle}, which covers nothing`, edges(graph, channel, bundle, { skipRange: '' })];
  },
  'deprecated-head'(catalog, d) {
    const [bundle] = quoted(d.message);
    const graph = packageOf(catalog, bundle, '');
    return graph && [`Remove the deprecation of the head ${bundle}`, { op: 'undeprecate', package: graph.package, bundle }];
  },
  'bundle-not-in-channel'(catalog, d) {
    const [pkg, bundle] = quoted(d.message);
    const channel = catalog.channelGraph(pkg)?.defaultChannel;
    return channel && [`Add ${bundle} to the default channel ${channel}`, { op: 'promote', package: pkg, bundle, channel }];
  },
};

/** The quick fixes of the findings `diagnostics` of document `text`, as code actions of workspace `ws`. */
export function quickFixes(ws, diagnostics, text, workspaceEdit) {
  const catalog = ws.loaded();
  if (!catalog) return [];
  const out = [];
  for (const d of diagnostics) {
    const fix = FIXES[d.code];
    if (!fix) continue;
    let found;
    let plan;
    try {
      found = fix(catalog, d, wordAt(text, d.range.start)?.word ?? '', text);
      if (!found) continue;
      plan = ws.olm.planEdit(ws.files(), found[1]);
    } catch {
      continue;
    }
    if (plan.edits.length) {
      out.push({ title: found[0], kind: 'quickfix', diagnostics: [d], isPreferred: true, edit: workspaceEdit(ws.root, plan) });
    }
  }
  return out;
}
