// CRD upgrade safety on screen, from a `crdSafety` result (the tools' module): the unsafe edges of
// a drawn channel marked (a red dashed curve and a focusable "!" mark whose accessible name says
// why OLM refuses the upgrade), and the CRD diff of an unsafe edge (the old and the new CRD's
// versions and schemas as YAML-like lines, each carrying the schema path it shows, so the
// offending fields are highlighted). The pure parts (`bundleCrds`, `crdLines`, `crdDiff`) run in a
// worker; `markUnsafeEdges` and `showCrdDiff` draw in the page. Shared by the site and the
// `<olm-upgrade-graph>` element.

const SVG_NS = 'http://www.w3.org/2000/svg';
const key = (from, to) => `${from}\u0000${to}`;

/** The unsafe edges of `channel` (all channels when absent) of a `crdSafety` result, keyed by from and to. */
export function unsafeEdges(result, channel) {
  const out = new Map();
  for (const e of result?.edges ?? []) {
    if (!e.safe && (channel === undefined || e.channel === channel)) out.set(key(e.from, e.to), e);
  }
  return out;
}

/** The unsafe edge from `from` to `to` in `unsafeEdges`' map, if any. */
export const unsafeEdge = (edges, from, to) => edges.get(key(from, to));

/** Why OLM refuses an edge, in one line: the preflight rules that fail and the CRDs they are about. */
export function edgeReason(edge) {
  const rules = [...new Set(edge.findings.map((f) => f.rule))];
  const crds = [...new Set(edge.findings.map((f) => f.crd))];
  return `${rules.join(', ')} (${crds.join(', ')})`;
}

/**
 * The unsafe edges a drawn curve stands for: its own edge, or, for a collapsed skipRange fan
 * (`data-kind="fan"`, drawn from one of the entries its range covers), every unsafe edge into its
 * target that its skipRange makes.
 */
function edgesOfCurve(path, edges) {
  const from = path.getAttribute('data-from');
  const to = path.getAttribute('data-to');
  if (path.getAttribute('data-kind') !== 'fan') {
    const edge = edges.get(key(from, to));
    return edge ? [edge] : [];
  }
  return [...edges.values()].filter((e) => e.to === to && e.via?.includes('skipRange'));
}

/** The accessible name of a curve's "!" mark: its edge, or the fan's edges (the first few named). */
function markLabel(list) {
  if (list.length === 1) {
    const [edge] = list;
    return `Unsafe upgrade ${edge.from} → ${edge.to}: OLM refuses it (${edgeReason(edge)}). Enter shows the CRD diff.`;
  }
  const named = list.slice(0, 3).map((e) => e.from).join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  const reasons = [...new Set(list.map(edgeReason))].join('; ');
  return `${list.length} unsafe upgrades to ${list[0].to} through its skipRange (from ${named}): OLM refuses them (${reasons}). Enter shows the CRD diff of the first.`;
}

/**
 * Mark the unsafe edges (`unsafeEdges`' map) in a drawn channel (`showGraph`'s svg): each curve
 * red and dashed, and a "!" mark at its middle that Tab reaches, named for the edge and its
 * reasons; a click, Enter or Space on it calls `onSelect(edge)`. A collapsed skipRange fan is
 * marked when any edge it stands for is unsafe (its mark names them and selects the first).
 * Returns how many curves were marked.
 */
export function markUnsafeEdges(svg, edges, { onSelect = () => {} } = {}) {
  svg.querySelector('.unsafe-marks')?.remove();
  const doc = svg.ownerDocument;
  const el = (name, attrs = {}, text) => {
    const e = doc.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const group = el('g', { class: 'unsafe-marks', role: 'group', 'aria-label': 'Upgrades the CRDs make unsafe' });
  for (const path of svg.querySelectorAll('path.edge')) {
    const list = edgesOfCurve(path, edges);
    if (!list.length) continue;
    const [edge] = list;
    path.classList.add('unsafe');
    // Inline style: the picture's own style sheet colours edges by kind, over attributes.
    for (const [k, v] of [['stroke', '#c62828'], ['stroke-dasharray', '6 3'], ['stroke-width', '2'], ['stroke-opacity', '1']]) path.style.setProperty(k, v);
    const at = path.getPointAtLength(path.getTotalLength() / 2);
    const label = markLabel(list);
    const mark = el('g', { class: 'unsafe-mark', tabindex: 0, role: 'button', 'aria-label': label, 'data-from': edge.from, 'data-to': edge.to, 'data-x': at.x, 'data-y': at.y, transform: `translate(${at.x} ${at.y})` });
    if (list.length > 1) mark.setAttribute('data-count', list.length);
    mark.append(el('title', {}, label), el('circle', { r: 8, fill: '#c62828', stroke: '#fff', 'stroke-width': 1.5 }),
      el('text', { y: 4, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold', fill: '#fff' }, '!'));
    mark.addEventListener('click', (ev) => { ev.stopPropagation(); onSelect(edge); });
    mark.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      ev.stopPropagation();
      onSelect(edge);
    });
    group.append(mark);
  }
  svg.append(group);
  return group.childElementCount;
}

/** The document of bundle `name` in a catalog file's text (YAML stream or JSON objects), or null. */
function bundleDocument(text, name) {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const yaml = new RegExp(`^name:[ \\t]*["']?${esc}["']?[ \\t]*$`, 'gm');
  const json = new RegExp(`"name"\\s*:\\s*"${esc}"`, 'g');
  for (const re of [yaml, json]) {
    for (const m of text.matchAll(re)) {
      const sep = re === yaml ? '\n---' : '\n}';
      const start = re === yaml ? text.lastIndexOf('\n---', m.index) : text.lastIndexOf('\n{', m.index);
      const end = text.indexOf(sep, m.index);
      const doc = text.slice(Math.max(0, start), end < 0 ? text.length : end);
      if (/schema["']?\s*:\s*["']?olm\.bundle["']?\s*,?\s*$/m.test(doc)) return doc;
    }
  }
  return null;
}

/**
 * The CRDs (parsed) that bundle `name` carries as `olm.bundle.object` properties in `files`
 * (`{path, content}`), as `opm render` writes them (base64 of the object's JSON).
 */
export function bundleCrds(files, name) {
  for (const f of files) {
    if (!f.content.includes(name)) continue;
    const doc = bundleDocument(f.content, name);
    if (!doc) continue;
    const out = [];
    for (const m of doc.matchAll(/["']?data["']?\s*:\s*["']?([A-Za-z0-9+/=]{16,})/g)) {
      try {
        const bytes = Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0));
        const obj = JSON.parse(new TextDecoder().decode(bytes));
        if (obj?.kind === 'CustomResourceDefinition') out.push(obj);
      } catch { /* not a JSON object: not shown */ }
    }
    return out;
  }
  return [];
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const scalar = (v) => (v === null || typeof v !== 'object' ? JSON.stringify(v) : null);

/** Push `value` (a schema node at `path` of `version`, or plain data when `path` is null) as lines at `indent`. */
function emit(out, value, indent, path, version) {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    for (const v of value) {
      const s = scalar(v);
      if (s !== null) out.push({ text: `${pad}- ${s}`, path, version });
      else { out.push({ text: `${pad}-`, path, version }); emit(out, v, indent + 2, null, version); }
    }
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const s = scalar(v);
    if (s !== null || (Array.isArray(v) && v.every((x) => scalar(x) !== null) && v.length <= 8)) {
      out.push({ text: `${pad}${k}: ${s ?? `[${v.map(scalar).join(', ')}]`}`, path, version, key: k });
    } else if (path !== null && SCHEMA_MAPS.has(k)) {
      out.push({ text: `${pad}${k}:`, path, version });
      for (const [name, sub] of Object.entries(v)) {
        const p = k === 'properties' ? `${path}.${name}` : `${path}.${k}[${name}]`;
        out.push({ text: `${pad}  ${name}:`, path: p, version, head: true });
        emit(out, sub ?? {}, indent + 4, p, version);
      }
    } else if (path !== null && (k === 'items' || k === 'additionalProperties' || k === 'not') && !Array.isArray(v)) {
      out.push({ text: `${pad}${k}:`, path: `${path}.${k}`, version, head: true });
      emit(out, v, indent + 2, `${path}.${k}`, version);
    } else if (path !== null && (SCHEMA_LISTS.has(k) || k === 'items') && Array.isArray(v)) {
      out.push({ text: `${pad}${k}:`, path, version });
      v.forEach((sub, i) => {
        out.push({ text: `${pad}  - # [${i}]`, path: `${path}.${k}[${i}]`, version, head: true });
        emit(out, sub ?? {}, indent + 4, `${path}.${k}[${i}]`, version);
      });
    } else {
      out.push({ text: `${pad}${k}:`, path, version, key: k });
      emit(out, v, indent + 2, null, version);
    }
  }
}

/** A CRD's scope, versions and schemas as lines `{text, path, version}` (`path` the schema path, `^.spec.size`). */
export function crdLines(crd) {
  const out = [{ text: `name: ${crd?.metadata?.name ?? ''}`, path: null, version: null }, { text: `scope: ${crd?.spec?.scope ?? ''}`, path: 'scope', version: null }, { text: 'versions:', path: null, version: null }];
  for (const v of crd?.spec?.versions ?? []) {
    out.push({ text: `- name: ${v.name}`, path: 'version', version: v.name });
    for (const f of ['served', 'storage']) out.push({ text: `  ${f}: ${v[f]}`, path: f === 'storage' ? 'version' : null, version: v.name });
    const schema = v.schema?.openAPIV3Schema ?? crd?.spec?.validation?.openAPIV3Schema;
    if (schema) {
      out.push({ text: '  schema.openAPIV3Schema:', path: '^', version: v.name, head: true });
      emit(out, schema, 4, '^', v.name);
    }
  }
  return out;
}

/** The schema keywords whose rule is named for them: a finding of such a rule highlights the field's line of that keyword (and its name); others all its lines. */
const KEYWORD_RULES = new Set(['type', 'required', 'default', 'enum', 'pattern', 'nullable', 'minimum', 'maximum', 'minLength', 'maxLength',
  'minItems', 'maxItems', 'minProperties', 'maxProperties', 'format', 'exclusiveMinimum', 'exclusiveMaximum']);

/** Where a finding points: its versions and schema path (from the message when the finding has none, as in `existingFieldRemoval`). */
function target(f) {
  let versions = f.version ? f.version.split(' -> ') : [];
  let path = f.path;
  const removed = /: (\S+)\.(\^\S*)\s*$/.exec(f.message);
  if (!path && removed) { versions = [removed[1]]; path = removed[2]; }
  if (f.rule === 'scope') path = 'scope';
  if (!path && /stored ?versions? |stored version/.test(f.message)) {
    path = 'version';
    versions = [...f.message.matchAll(/\b(v\d+(?:(?:alpha|beta)\d+)?)\b/g)].map((m) => m[1]);
  }
  return { versions, path };
}

/**
 * The diff of one CRD on an edge: the old and the new CRD's lines, each line that shows a field a
 * finding is about marked `hit` (with those findings' rules).
 */
export function crdDiff(oldCrd, newCrd, findings) {
  const targets = findings.map((f) => ({ ...target(f), rule: f.rule }));
  const mark = (lines) => lines.map((l) => {
    const rules = targets.filter((t) => t.path !== null && t.path === l.path && (t.versions.length === 0 || l.version === null || t.versions.includes(l.version))
      && (!KEYWORD_RULES.has(t.rule) || l.head || l.key === t.rule || l.path === 'version')).map((t) => t.rule);
    return rules.length ? { ...l, hit: [...new Set(rules)] } : l;
  });
  return { old: oldCrd ? mark(crdLines(oldCrd)) : [], new: newCrd ? mark(crdLines(newCrd)) : [] };
}

/** The lines to show: the hits with `context` lines around them, gaps as `null`; all when `whole`. */
export function excerpt(lines, { context = 3, whole = false } = {}) {
  if (whole) return lines;
  const keep = new Set();
  lines.forEach((l, i) => { if (l.hit) for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep.add(j); });
  const out = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i !== last + 1) out.push(null);
    out.push(lines[i]);
    last = i;
  }
  if (last !== lines.length - 1 && out.length) out.push(null);
  return out;
}

/** Draw `crdDiff`'s result into `container` (two columns, old and new; hits highlighted with their rules). */
export function showCrdDiff(container, diff, { whole = false, titles = ['old', 'new'] } = {}) {
  const doc = container.ownerDocument;
  const column = (lines, title) => {
    const pre = doc.createElement('pre');
    pre.className = whole ? 'crd-lines whole' : 'crd-lines';
    pre.setAttribute('tabindex', '0');
    pre.setAttribute('role', 'region');
    pre.setAttribute('aria-label', `${title} CRD`);
    const shown = excerpt(lines, { whole });
    if (!shown.length) pre.append(whole || !lines.length ? 'not in this bundle' : 'no highlighted field on this side (show the whole CRD)');
    // Runs of plain lines as one text node each: a whole CRD of thousands of lines stays a few
    // hundred nodes, drawn without a long task.
    let run = [];
    const flush = () => { if (run.length) pre.append(`${run.join('\n')}\n`); run = []; };
    for (const l of shown) {
      if (l !== null && !l.hit) { run.push(l.text); continue; }
      flush();
      const line = doc.createElement(l?.hit ? 'mark' : 'span');
      line.className = l === null ? 'crd-gap' : 'crd-hit';
      line.textContent = l === null ? '⋯' : l.text;
      if (l?.hit) {
        line.title = l.hit.join(', ');
        const tag = doc.createElement('span');
        tag.className = 'crd-rule';
        tag.textContent = `  ← ${l.hit.join(', ')}`;
        line.append(tag);
      }
      pre.append(line, '\n');
    }
    flush();
    const fig = doc.createElement('figure');
    const cap = doc.createElement('figcaption');
    cap.textContent = title;
    fig.append(cap, pre);
    return fig;
  };
  container.replaceChildren(column(diff.old, titles[0]), column(diff.new, titles[1]));
}
