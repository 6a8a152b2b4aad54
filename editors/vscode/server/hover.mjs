// Hover text for a bundle (entry) name: its package, version, channels, deprecation, and for each
// channel listing it the OLM v0 and v1 upgrade paths to the channel's head; for a channel name,
// its head and entries. Everything comes from the npm package's loaded catalog.

/** The package graph and node of bundle `name`, or null. */
function findBundle(catalog, name) {
  for (const pkg of catalog.packages()) {
    const graph = catalog.channelGraph(pkg.name);
    const channels = graph.bundleChannels[name];
    if (!channels) continue;
    const node = graph.channels.flatMap((c) => c.nodes).find((n) => n.name === name && !n.virtual);
    if (node) return { pkg, graph, node, channels };
  }
  return null;
}

/** One line: the path from `name` to the head of `channel` under `semantics`, or why there is none. */
function pathLine(catalog, pkg, channel, name, semantics) {
  try {
    const path = catalog.upgradePath({ package: pkg, channel, from: name, semantics });
    if (path.stranded) return `${semantics}: stranded${path.reason ? ` (${path.reason})` : ''}`;
    if (!path.steps.length) return `${semantics}: is the head`;
    const hops = path.steps.map((s) => `${s.to} (${s.edge})`).join(' → ');
    return `${semantics}: ${hops}`;
  } catch (e) {
    return `${semantics}: ${e.message}`;
  }
}

/** Markdown for bundle `name`, or null when no package has it. */
function bundleHover(catalog, name) {
  const found = findBundle(catalog, name);
  if (!found) return null;
  const { pkg, node, channels } = found;
  const lines = [`**${name}** — bundle of package \`${pkg.name}\``, ''];
  lines.push(`- version: ${node.version ?? '(none)'}`);
  lines.push(`- channels: ${channels.join(', ')}`);
  if (node.deprecated) lines.push(`- deprecated: ${node.deprecated}`);
  for (const channel of channels) {
    const head = found.graph.channels.find((c) => c.channel === channel)?.head;
    lines.push('', `Path to the head of \`${channel}\`${head ? ` (${head})` : ''}:`);
    for (const semantics of ['v0', 'v1']) lines.push(`- ${pathLine(catalog, pkg.name, channel, name, semantics)}`);
  }
  return lines.join('\n');
}

/** Markdown for channel `name` of some package, or null. */
function channelHover(catalog, name) {
  for (const pkg of catalog.packages()) {
    const channel = pkg.channels.find((c) => c.name === name);
    if (!channel) continue;
    const lines = [`**${name}** — channel of package \`${pkg.name}\``, ''];
    lines.push(`- head: ${channel.head ?? '(none)'}`, `- entries: ${channel.entries}`);
    if (pkg.defaultChannel === name) lines.push('- the default channel');
    if (channel.deprecated) lines.push(`- deprecated: ${channel.deprecated}`);
    return lines.join('\n');
  }
  return null;
}

/** The hover for `word` in the loaded `catalog`, or null. */
export function hoverText(catalog, word) {
  return bundleHover(catalog, word) ?? channelHover(catalog, word);
}
