// Hover text for a bundle (entry) name: its package, version, channels, deprecation, and for each
// channel listing it the OLM v0 and v1 upgrade paths to the channel's head; for a package name,
// its channels and default channel; for a channel name, its head and entries. The hovered
// document's packages are searched first. Everything comes from the npm package's loaded catalog.

/** The catalog's packages, those named in `first` (the hovered document's) first. */
export function packagesFirst(catalog, first) {
  const all = catalog.packages();
  return [...all.filter((p) => first.includes(p.name)), ...all.filter((p) => !first.includes(p.name))];
}

/** The package names a document's blobs declare (`package: x`, `"package": "x"`). */
export function documentPackages(text) {
  return [...text.matchAll(/^\s*"?package"?\s*:\s*"?([^"\s,}]+)/gm)].map((m) => m[1]);
}

/** The package graph and node of bundle `name`, or null. */
function findBundle(catalog, name, first) {
  for (const pkg of packagesFirst(catalog, first)) {
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
function bundleHover(catalog, name, first) {
  const found = findBundle(catalog, name, first);
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
function channelHover(catalog, name, first) {
  for (const pkg of packagesFirst(catalog, first)) {
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

/** Markdown for package `name`, or null. */
function packageHover(catalog, name) {
  const pkg = catalog.packages().find((p) => p.name === name);
  if (!pkg) return null;
  const lines = [`**${name}** — package`, ''];
  lines.push(`- default channel: ${pkg.defaultChannel ?? '(none)'}`, `- bundles: ${pkg.bundles}`);
  lines.push(`- channels: ${pkg.channels.map((c) => `${c.name} (head ${c.head ?? 'none'})`).join(', ')}`);
  if (pkg.deprecated) lines.push(`- deprecated: ${pkg.deprecated}`);
  return lines.join('\n');
}

/**
 * The hover for `word` in the loaded `catalog`, or null; the packages the hovered document's
 * `text` declares are searched first (a channel name is looked up in them only when they exist).
 */
export function hoverText(catalog, word, text) {
  const first = documentPackages(text);
  return bundleHover(catalog, word, first) ?? packageHover(catalog, word) ?? channelHover(catalog, word, first);
}
