// Editing the catalog from the page (edit-worker.js does the work): operations on the selected
// bundle of a channel graph (promote, deprecate or undeprecate, remove and re-wire, set as head,
// set its edges) and on the package and channel on screen (add a bundle, new channel, rename or
// remove the channel, set it as default, deprecate it or the package). Each opens a dialog: the operation's
// fields, then its preview (the text diff of every changed file, the catalog diff, the
// update-safety and validation findings, the graph after, drawn by the shared renderer), and only
// Apply changes the files. Undo, Redo and Save (download, a zip for several files, or straight
// back to a folder where the browser has the File System Access API: refused, with the files named
// and a reload or an overwrite offered, when the folder's copy changed since it was read or saved;
// all or nothing, folder.js) live in the aside.
// Catalog text only ever becomes text nodes (escape.js).
import { call } from './remote.js';
import { h } from './escape.js';
import { showPicture } from './graph.js';
import { checkFolder, writeAll, readFolder, SaveError } from './folder.js';

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const POLICIES = [
  ['replaces', 'replaces the channel head'],
  ['skipRange', 'skipRange over the channel (and skips the head)'],
  ['semver', 'as the semver template'],
];

/**
 * @param {{
 *   main: () => import('./remote.js').RemoteCatalog | null,
 *   view: () => ({ pkg: any, channel: string, graph: any } | null),
 *   adopt: (summary: any, paths: string[]) => Promise<void>,
 *   download: (name: string, data: string | Blob, type: string) => void,
 *   load: (files: {path: string, blob: Blob}[]) => Promise<any>,
 * }} deps `view()`: the package, channel and ChannelGraph on screen; `adopt(summary, paths)`:
 *   show the catalog after an edit (its files `paths` changed); `load(files)`: open these files
 *   as the catalog (the folder read again)
 */
export function createEditing(deps) {
  const $ = (id) => document.getElementById(id);
  let selected = null; // the bundle node picked in the graph (a PictureNode)
  let busy = false;

  // ---- the dialog: the operation's form, then its preview
  const title = h('h2', { id: 'edit-title' });
  const intro = h('p', { id: 'edit-intro' });
  const form = h('form', { id: 'edit-form', method: 'dialog', novalidate: true });
  const problem = h('p', { id: 'edit-problem', class: 'edit-problem', role: 'alert' });
  const preview = h('div', { id: 'edit-preview', class: 'edit-preview' });
  const planBtn = h('button', { type: 'button', id: 'edit-plan', class: 'primary' }, 'Preview');
  const applyBtn = h('button', { type: 'button', id: 'edit-apply', class: 'primary', hidden: true }, 'Apply');
  const backBtn = h('button', { type: 'button', id: 'edit-back', hidden: true }, 'Back');
  const cancelBtn = h('button', { type: 'button', id: 'edit-cancel' }, 'Cancel');
  const dialog = h('dialog', { id: 'edit-dialog', class: 'edit-dialog', 'aria-labelledby': 'edit-title', 'aria-describedby': 'edit-intro' },
    title, intro, form, problem, preview, h('div', { class: 'controls edit-buttons' }, planBtn, applyBtn, backBtn, cancelBtn));
  document.body.append(dialog);

  /** The operation the dialog is for: `build()` makes it from the form (throws a message when a field is missing). */
  let current = null;
  let turn = 0; // dialogs opened so far: a plan whose dialog was closed or replaced is dropped
  /** The id of what had the focus when the dialog opened: it gets it back (the toolbars are redrawn meanwhile). */
  let opener = '';
  const refocus = () => (document.getElementById(opener) ?? $('graph'))?.focus();

  function open({ heading, text, fields = [], build }) {
    current = { build };
    turn++;
    opener = document.activeElement?.id ?? '';
    title.textContent = heading;
    intro.textContent = text;
    form.replaceChildren(...fields);
    form.hidden = fields.length === 0;
    problem.textContent = '';
    preview.replaceChildren();
    preview.hidden = true;
    planBtn.hidden = false;
    applyBtn.hidden = true;
    backBtn.hidden = true;
    dialog.showModal();
    // Nothing to fill in: straight to the preview.
    if (!fields.length) plan();
    else form.querySelector('input, select, textarea')?.focus();
  }

  async function close() {
    const c = deps.main();
    if (dialog.open) dialog.close();
    current = null;
    turn++;
    refocus();
    if (c) await call('editCancel', c.handle).catch(() => {});
  }
  cancelBtn.addEventListener('click', close);
  dialog.addEventListener('cancel', (ev) => { ev.preventDefault(); close(); });
  backBtn.addEventListener('click', () => {
    preview.hidden = true;
    preview.replaceChildren();
    form.hidden = false;
    planBtn.hidden = false;
    applyBtn.hidden = true;
    backBtn.hidden = true;
    form.querySelector('input, select, textarea')?.focus();
  });
  form.addEventListener('submit', (ev) => { ev.preventDefault(); plan(); });
  planBtn.addEventListener('click', plan);
  applyBtn.addEventListener('click', apply);

  async function plan() {
    const c = deps.main();
    if (!current || !c) return;
    problem.textContent = '';
    let op;
    try {
      op = current.build();
    } catch (e) {
      problem.textContent = e.message;
      return;
    }
    planBtn.disabled = true;
    dialog.setAttribute('aria-busy', 'true');
    const mine = turn;
    let result;
    const t0 = performance.now();
    try {
      result = await call('editPlan', c.handle, op);
      document.body.dataset.editPlanMs = String(Math.round(performance.now() - t0));
    } catch (e) {
      if (mine === turn) {
        problem.textContent = e.message;
        problem.dataset.code = e.code ?? '';
      }
      return;
    } finally {
      planBtn.disabled = false;
      dialog.removeAttribute('aria-busy');
    }
    if (!dialog.open || mine !== turn) return;
    form.hidden = true;
    planBtn.hidden = true;
    applyBtn.hidden = false;
    backBtn.hidden = form.childElementCount === 0;
    preview.hidden = false;
    await showPreview(result, op);
    applyBtn.focus();
    document.body.dataset.editPlanned = String((Number(document.body.dataset.editPlanned) || 0) + 1);
  }

  // ---- the preview
  async function showPreview(result, op) {
    const errors = result.findings.filter((d) => d.severity === 'error').length;
    const warnings = result.findings.filter((d) => d.severity === 'warning').length;
    const verdict = h('p', { id: 'edit-verdict', class: `summary ${errors ? 'invalid' : 'valid'}` },
      `${result.label}: ${plural(result.diffs.length, 'file')} changed; `,
      errors || warnings ? `${plural(errors, 'new error')}, ${plural(warnings, 'new warning')}` : 'no new findings',
      result.preview.report.valid ? '; the catalog stays valid.' : '; the catalog is invalid after it.');
    // New errors are the user's call (the CLI wants --force): said on the button too.
    applyBtn.textContent = errors ? 'Apply with the new errors' : 'Apply';
    preview.replaceChildren(verdict, textDiff(result.diffs), catalogChanges(result.diff), findings(result.findings), h('section', { id: 'edit-after' }));
    await graphAfter(result, op);
  }

  /** The unified diff of each changed file; every line a text node. */
  function textDiff(diffs) {
    const wrap = h('section', { class: 'edit-diffs', 'aria-labelledby': 'edit-diffs-h' }, h('h3', { id: 'edit-diffs-h' }, 'Changed files'));
    for (const d of diffs) {
      const lines = [];
      for (const hk of d.hunks) {
        lines.push(h('span', { class: 'dl hunk' }, hk.header, '\n'));
        for (const l of hk.lines) {
          const cls = l[0] === '+' ? 'add' : l[0] === '-' ? 'del' : 'ctx';
          lines.push(h('span', { class: `dl ${cls}` }, l, '\n'));
        }
      }
      if (d.cut) lines.push(h('span', { class: 'dl hunk' }, `… and ${d.cut.toLocaleString('en-US')} more lines\n`));
      wrap.append(h('details', { open: true, class: 'edit-file', 'data-path': d.path },
        h('summary', {}, h('span', { class: 'path' }, d.path), ' ', h('span', { class: 'muted' }, `${d.created ? 'new file, ' : ''}+${d.added} −${d.removed}`)),
        h('pre', { class: 'udiff', tabindex: '0', 'aria-label': `Diff of ${d.path}` }, h('span', { class: 'dl hunk' }, `--- a/${d.path}\n+++ b/${d.path}\n`), lines)));
    }
    return wrap;
  }

  function catalogChanges(diff) {
    const wrap = h('section', { class: 'edit-changes', id: 'edit-changes', 'aria-labelledby': 'edit-changes-h' }, h('h3', { id: 'edit-changes-h' }, 'Catalog changes'));
    const vc = (label, c) => c && h('li', {}, `${label}: ${c.old ?? '—'} → ${c.new ?? '—'}`);
    const items = [];
    for (const p of diff.packages) {
      items.push(vc(`${p.name}: default channel`, p.defaultChannel), vc(`${p.name}: deprecation`, p.deprecation));
      for (const c of p.channels) {
        const parts = [];
        if (c.head) parts.push(`head ${c.head.old ?? '—'} → ${c.head.new ?? '—'}`);
        if (c.entriesAdded.length) parts.push(`entries added: ${c.entriesAdded.join(', ')}`);
        if (c.entriesRemoved.length) parts.push(`entries removed: ${c.entriesRemoved.join(', ')}`);
        if (c.edgesAdded.length || c.edgesRemoved.length) parts.push(`edges +${c.edgesAdded.length} −${c.edgesRemoved.length}`);
        if (c.deprecation) parts.push(`deprecation ${c.deprecation.old ?? '—'} → ${c.deprecation.new ?? '—'}`);
        items.push(h('li', { 'data-channel': c.name }, h('span', { class: `tag cmp-${c.kind}` }, c.kind), ` channel ${c.name}`, parts.length ? `: ${parts.join('; ')}` : ''));
      }
      for (const b of p.bundles) {
        items.push(h('li', { 'data-bundle': b.name }, h('span', { class: `tag cmp-${b.kind}` }, b.kind), ` bundle ${b.name}${b.version ? ` (${b.version})` : ''}`,
          b.fields.length ? `: ${b.fields.join(', ')}` : ''));
      }
    }
    const shown = items.filter(Boolean);
    wrap.append(shown.length ? h('ul', {}, shown) : h('p', { class: 'muted' }, 'The model does not change.'));
    return wrap;
  }

  function findings(list) {
    const wrap = h('section', { class: 'edit-findings', 'aria-labelledby': 'edit-findings-h' }, h('h3', { id: 'edit-findings-h' }, `Update safety and validation (${list.length})`));
    if (!list.length) {
      wrap.append(h('p', { class: 'muted' }, 'No new findings: every installed version keeps its way to the head, and validation finds nothing new.'));
      return wrap;
    }
    wrap.append(h('ul', { id: 'edit-findings' }, list.map((d) => {
      const file = d.file ?? d.location?.file ?? '';
      const line = d.line ?? d.location?.line ?? 0;
      const col = d.column ?? d.location?.column ?? 0;
      return h('li', {}, h('div', { class: `diag ${d.severity} static`, 'data-code': d.code },
        h('span', { class: 'where' }, `${file}:${line}:${col}`), ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message));
    })));
    return wrap;
  }

  /**
   * The graph of each channel the edit touches after it (drawn from the preview catalog), or before
   * it (from the catalog loaded), with the same renderer as the page's graph.
   */
  async function graphAfter(result, op) {
    const wrap = $('edit-after');
    wrap.append(h('h3', { id: 'edit-after-h' }, 'Graph after'));
    const channels = result.graphs.filter((g) => g.after);
    // No channel's graph changes (a bundle deprecated, say): the channel on screen, as it will look.
    const v = deps.view();
    if (!result.graphs.length && v && v.pkg.name === op.package) channels.push({ package: v.pkg.name, channel: v.channel, before: true, after: true });
    const gone = result.graphs.filter((g) => !g.after).map((g) => g.channel);
    if (gone.length) wrap.append(h('p', { class: 'note' }, `Removed: channel ${gone.join(', ')}.`));
    if (!channels.length) {
      if (!gone.length) wrap.append(h('p', { class: 'muted' }, 'No channel graph changes.'));
      return;
    }
    const key = (g) => JSON.stringify([g.package, g.channel]);
    const select = h('select', { id: 'edit-after-channel' }, channels.map((g) => h('option', { value: key(g) }, `${g.package} — ${g.channel}`)));
    const side = h('select', { id: 'edit-after-side' }, h('option', { value: 'after' }, 'after the edit'), h('option', { value: 'before' }, 'before it (as now)'));
    const note = h('p', { class: 'note', id: 'edit-graph-note', 'aria-live': 'polite' });
    const box = h('div', { id: 'edit-graph', class: 'graph edit-graph', tabindex: '0', role: 'region', 'aria-label': 'Upgrade graph of the channel chosen (drag to pan, wheel or +/- to zoom)' });
    wrap.append(h('div', { class: 'controls' }, h('label', { for: 'edit-after-channel' }, 'Channel'), select, h('label', { for: 'edit-after-side' }, 'Graph'), side), note, box);
    const wanted = op.channel && typeof op.channel === 'string' ? op.channel : v?.channel;
    select.value = key(channels.find((g) => g.channel === wanted) ?? channels[0]);
    const draw = async () => {
      const chosen = channels.find((g) => key(g) === select.value);
      const after = side.value === 'after';
      const wantedNow = () => box.isConnected && select.value === key(chosen) && side.value === (after ? 'after' : 'before');
      if (!after && !chosen.before) {
        box.replaceChildren();
        box.hidden = true;
        note.textContent = `Channel ${chosen.channel} is new: it has no graph before the edit.`;
        return;
      }
      const handle = after ? result.preview.handle : deps.main().handle;
      const from = typeof op.bundle === 'string' && (after ? op.op !== 'removeBundle' : op.op !== 'promote') ? op.bundle : undefined;
      const opts = { package: chosen.package, channel: chosen.channel, interactive: false, legend: false, idPrefix: 'edit-graph' };
      let drawn;
      try {
        drawn = await call('draw', handle, { ...opts, from });
      } catch {
        drawn = await call('draw', handle, opts);
      }
      if (!wantedNow()) return;
      box.hidden = false;
      note.textContent = from ? `Highlighted: the upgrade path from ${from}.` : '';
      showPicture(box, drawn);
      Object.assign(box.dataset, { channel: chosen.channel, side: side.value, nodes: String(drawn.picture.graphNodes) });
    };
    select.addEventListener('change', draw);
    side.addEventListener('change', draw);
    await draw();
  }

  async function apply() {
    const c = deps.main();
    if (!c || busy) return;
    busy = true;
    applyBtn.disabled = true;
    const t0 = performance.now();
    try {
      const out = await call('editApply', c.handle);
      document.body.dataset.editApplyMs = String(Math.round(performance.now() - t0));
      dialog.close();
      current = null;
      await deps.adopt(out.catalog, out.paths);
      showStatus(out.status, `Applied: ${labelOf(out)}.`);
      refocus();
      document.body.dataset.editApplied = String((Number(document.body.dataset.editApplied) || 0) + 1);
    } catch (e) {
      problem.textContent = `${e.code ? `${e.code}: ` : ''}${e.message}`;
    } finally {
      busy = false;
      applyBtn.disabled = false;
    }
  }
  const labelOf = (out) => out.label ?? out.status.undo ?? 'edit';

  // ---- form fields
  let fieldId = 0;
  function field(label, control, hint) {
    control.id ||= `edit-f${++fieldId}`;
    const hintEl = hint ? h('span', { class: 'note', id: `${control.id}-hint` }, hint) : null;
    if (hint) control.setAttribute('aria-describedby', hintEl.id);
    return h('div', { class: 'edit-field' }, h('label', { for: control.id }, label), control, hintEl);
  }
  const input = (id, attrs = {}) => h('input', { id, type: 'text', spellcheck: 'false', autocomplete: 'off', ...attrs });
  const policySelect = (id) => h('select', { id }, POLICIES.map(([v, label]) => h('option', { value: v }, label)));
  const required = (el, what) => {
    const v = el.value.trim();
    if (!v) { el.focus(); throw new Error(`${what} is needed.`); }
    return v;
  };

  // ---- operations on the selected bundle
  const nodeBox = h('div', { id: 'edit-node', class: 'edit-actions', role: 'group', 'aria-labelledby': 'edit-node-label', 'aria-live': 'polite' });
  const pkgBox = h('div', { id: 'edit-package', class: 'edit-actions', role: 'group', 'aria-labelledby': 'edit-package-label' });

  const view = () => deps.view();
  const graphNode = (name) => view()?.graph?.nodes.find((n) => n.name === name);

  /**
   * Redraw a toolbar without losing the keyboard's place: a button that had the focus has it again
   * in the new toolbar (a redraw follows every change of the view, which may come while the user
   * is on a button).
   */
  function keepingFocus(box, render) {
    const id = box.contains(document.activeElement) ? document.activeElement.id : '';
    render();
    if (id) document.getElementById(id)?.focus();
  }
  const renderNodeActions = () => keepingFocus(nodeBox, drawNodeActions);
  const renderPackageActions = () => keepingFocus(pkgBox, drawPackageActions);

  function drawNodeActions() {
    const v = view();
    nodeBox.replaceChildren();
    if (!v || !selected) {
      nodeBox.append(h('span', { id: 'edit-node-label', class: 'muted' }, 'Edit a bundle: pick it in the graph (click, or Tab and Enter), then promote, deprecate, remove or re-wire it here.'));
      return;
    }
    const n = graphNode(selected.name);
    const deprecated = n ? n.deprecated !== null && n.deprecated !== undefined : selected.deprecated !== null;
    const b = (id, text, onclick, disabled = false) => h('button', { type: 'button', id, onclick, disabled, 'aria-haspopup': 'dialog' }, text);
    nodeBox.append(
      h('span', { id: 'edit-node-label', class: 'edit-label' }, 'Edit ', h('strong', {}, selected.name), ':'),
      b('edit-promote', 'Promote to channel…', promote),
      deprecated ? b('edit-undeprecate', 'Undeprecate', undeprecateBundle) : b('edit-deprecate', 'Deprecate…', deprecateBundle),
      b('edit-remove', 'Remove and re-wire…', removeBundle),
      b('edit-head', 'Set as head…', () => edges(true), Boolean(n?.head)),
      b('edit-edges', 'Edges…', () => edges(false)),
    );
  }

  function promote() {
    const v = view();
    const name = selected.name;
    const pkg = v.pkg;
    const listed = new Set(graphNode(name)?.channels ?? [v.channel]);
    const others = pkg.channels.map((c) => c.name).filter((c) => !listed.has(c));
    const channel = h('select', { id: 'edit-promote-channel' },
      others.map((c) => h('option', { value: c }, c)), h('option', { value: '' }, 'a new channel…'));
    const fresh = input('edit-promote-new', { placeholder: 'e.g. fast' });
    const policy = policySelect('edit-promote-policy');
    open({
      heading: `Promote ${name}`,
      text: `List ${name} in another channel of ${pkg.name}; its edges there follow the policy.`,
      fields: [field('Channel', channel), field('or a new channel', fresh, 'Used when "a new channel…" is chosen, or when filled in.'), field('Edges', policy)],
      build: () => ({
        op: 'promote', package: pkg.name, bundle: name,
        channel: fresh.value.trim() || (channel.value ? channel.value : required(fresh, 'A channel name')),
        edge: { kind: policy.value },
      }),
    });
  }

  function deprecationFields(id, what) {
    const message = h('textarea', { id, rows: 3, spellcheck: 'true' });
    message.value = `${what} is deprecated.`;
    return { message, fields: [field('Message shown to users', message)] };
  }

  function deprecateBundle() {
    const pkg = view().pkg.name;
    const name = selected.name;
    const { message, fields } = deprecationFields('edit-deprecate-message', name);
    open({
      heading: `Deprecate ${name}`, fields,
      text: `Add ${name} to ${pkg}'s olm.deprecations (created when missing); OLM shows the message to anyone on it.`,
      build: () => ({ op: 'deprecate', package: pkg, bundle: name, message: required(message, 'A message') }),
    });
  }

  function undeprecateBundle() {
    const pkg = view().pkg.name;
    const name = selected.name;
    open({ heading: `Undeprecate ${name}`, text: `Remove ${name}'s entry from ${pkg}'s olm.deprecations.`, build: () => ({ op: 'undeprecate', package: pkg, bundle: name }) });
  }

  function removeBundle() {
    const pkg = view().pkg.name;
    const name = selected.name;
    open({
      heading: `Remove ${name}`,
      text: `Remove ${name} from every channel and from the catalog; entries that replaced or skipped it are re-wired so that every version that reached it still reaches the head (refused when that is impossible).`,
      build: () => ({ op: 'removeBundle', package: pkg, bundle: name }),
    });
  }

  /** Set the entry's replaces, skips and skipRange; `asHead`: it replaces the current head. */
  function edges(asHead) {
    const v = view();
    const name = selected.name;
    const g = v.graph;
    const now = {
      replaces: g.edges.find((e) => e.to === name && e.kind === 'replaces')?.from ?? '',
      skips: g.edges.filter((e) => e.to === name && e.kind === 'skips').map((e) => e.from).join(', '),
      skipRange: g.fans?.find((f) => f.to === name)?.range ?? '',
    };
    const replaces = input('edit-edges-replaces', { value: asHead ? (g.head ?? '') : now.replaces });
    const skips = input('edit-edges-skips', { value: now.skips });
    const range = input('edit-edges-range', { value: now.skipRange });
    open({
      heading: asHead ? `Set ${name} as the head of ${v.channel}` : `Edges of ${name} in ${v.channel}`,
      text: asHead
        ? `${name} replaces the current head${g.head ? ` (${g.head})` : ''}, so that it becomes the channel's head. An empty field removes that key.`
        : 'The upgrade edges of this entry. An empty field removes that key.',
      fields: [field('replaces', replaces), field('skips', skips, 'Bundle names, comma-separated.'), field('skipRange', range, 'e.g. >=1.0.0 <1.4.0')],
      build: () => {
        const op = { op: 'setEdges', package: v.pkg.name, channel: v.channel, bundle: name };
        const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
        if (replaces.value.trim() !== now.replaces) op.replaces = replaces.value.trim();
        if (list(skips.value).join(', ') !== now.skips) op.skips = list(skips.value);
        if (range.value.trim() !== now.skipRange) op.skipRange = range.value.trim();
        return op;
      },
    });
  }

  // ---- operations on the package and the channel on screen
  function drawPackageActions() {
    const v = view();
    pkgBox.replaceChildren();
    if (!v) return;
    const ch = v.pkg.channels.find((c) => c.name === v.channel);
    const isDefault = v.pkg.defaultChannel === v.channel;
    const deprecated = ch?.deprecated !== null && ch?.deprecated !== undefined;
    const b = (id, text, onclick, disabled = false) => h('button', { type: 'button', id, onclick, disabled, 'aria-haspopup': 'dialog' }, text);
    pkgBox.append(
      h('span', { id: 'edit-package-label', class: 'edit-label' }, 'Edit ', h('strong', {}, v.pkg.name), ':'),
      b('edit-add-bundle', 'Add bundle…', addBundle),
      b('edit-new-channel', 'New channel…', newChannel),
      b('edit-rename-channel', `Rename ${v.channel}…`, renameChannel),
      b('edit-remove-channel', `Remove ${v.channel}…`, removeChannel, isDefault),
      b('edit-default-channel', `Make ${v.channel} default`, setDefault, isDefault),
      deprecated ? b('edit-undeprecate-channel', `Undeprecate ${v.channel}`, undeprecateChannel) : b('edit-deprecate-channel', `Deprecate ${v.channel}…`, deprecateChannel),
      v.pkg.deprecated !== null && v.pkg.deprecated !== undefined
        ? b('edit-undeprecate-package', 'Undeprecate the package', undeprecatePackage)
        : b('edit-deprecate-package', 'Deprecate the package…', deprecatePackage),
    );
  }

  function addBundle() {
    const v = view();
    const pkg = v.pkg;
    const kind = h('select', { id: 'edit-add-kind' }, h('option', { value: 'image' }, 'an image, name and version'), h('option', { value: 'blob' }, 'a pasted olm.bundle blob'));
    const image = input('edit-add-image', { placeholder: 'quay.io/org/bundle:v1.2.3' });
    const name = input('edit-add-name', { placeholder: `${pkg.name}.v1.2.3` });
    const version = input('edit-add-version', { placeholder: '1.2.3' });
    const blob = h('textarea', { id: 'edit-add-blob', rows: 8, spellcheck: 'false', placeholder: 'schema: olm.bundle\nname: …\npackage: …\nimage: …\nproperties: …' });
    const byImage = h('div', { class: 'edit-fields' }, field('Image', image), field('Bundle name', name), field('Version', version));
    const byBlob = h('div', { class: 'edit-fields', hidden: true }, field('olm.bundle blob (YAML or JSON)', blob));
    kind.addEventListener('change', () => { byImage.hidden = kind.value !== 'image'; byBlob.hidden = kind.value !== 'blob'; });
    const boxes = pkg.channels.map((c) => h('label', { class: 'edit-check' }, h('input', { type: 'checkbox', value: c.name, checked: c.name === v.channel }), ` ${c.name}`));
    const fresh = input('edit-add-channel', { placeholder: 'another channel (created)' });
    const policy = policySelect('edit-add-policy');
    open({
      heading: `Add a bundle to ${pkg.name}`,
      text: 'A new bundle, listed in the channels chosen; its edges follow the policy.',
      fields: [field('From', kind), byImage, byBlob,
        h('fieldset', { class: 'edit-channels' }, h('legend', {}, 'Channels'), boxes, field('New channel', fresh)),
        field('Edges', policy)],
      build: () => {
        const channels = boxes.map((l) => l.firstChild).filter((x) => x.checked).map((x) => x.value);
        if (fresh.value.trim()) channels.push(fresh.value.trim());
        if (!channels.length) throw new Error('Choose at least one channel.');
        const bundle = kind.value === 'blob'
          ? { blob: required(blob, 'The olm.bundle blob') }
          : { image: required(image, 'The image'), name: required(name, 'The bundle name'), version: required(version, 'The version') };
        return { op: 'addBundle', package: pkg.name, bundle, channels, edge: { kind: policy.value } };
      },
    });
  }

  async function newChannel() {
    const v = view();
    const pkg = v.pkg;
    const bundles = (await deps.main().bundles(pkg.name)).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const name = input('edit-channel-name', { placeholder: 'e.g. candidate' });
    const boxes = bundles.map(([b, ver]) => h('label', { class: 'edit-check' }, h('input', { type: 'checkbox', value: b }), ` ${b}${ver ? ` (${ver})` : ''}`));
    const policy = policySelect('edit-channel-policy');
    open({
      heading: `New channel of ${pkg.name}`,
      text: 'A channel listing existing bundles in version order; each entry\'s edges follow the policy.',
      fields: [field('Name', name), h('fieldset', { class: 'edit-channels edit-bundles' }, h('legend', {}, 'Bundles'), boxes), field('Edges', policy)],
      build: () => {
        const chosen = boxes.map((l) => l.firstChild).filter((x) => x.checked).map((x) => x.value);
        const channel = required(name, 'A channel name');
        if (!chosen.length) throw new Error('Choose at least one bundle.');
        return { op: 'createChannel', package: pkg.name, channel, bundles: chosen, edge: { kind: policy.value } };
      },
    });
  }

  function renameChannel() {
    const v = view();
    const to = input('edit-rename-to', { value: v.channel });
    open({
      heading: `Rename channel ${v.channel}`,
      text: 'The default channel and deprecations that name it follow.',
      fields: [field('New name', to)],
      build: () => ({ op: 'renameChannel', package: v.pkg.name, channel: v.channel, to: required(to, 'A new name') }),
    });
  }

  function removeChannel() {
    const v = view();
    open({ heading: `Remove channel ${v.channel}`, text: 'Refused when a bundle would be left in no channel.', build: () => ({ op: 'removeChannel', package: v.pkg.name, channel: v.channel }) });
  }

  function setDefault() {
    const v = view();
    open({ heading: `Make ${v.channel} the default channel`, text: `The channel OLM subscribes to when a Subscription names none.`, build: () => ({ op: 'setDefaultChannel', package: v.pkg.name, channel: v.channel }) });
  }

  function deprecateChannel() {
    const v = view();
    const { message, fields } = deprecationFields('edit-deprecate-channel-message', `Channel ${v.channel}`);
    open({ heading: `Deprecate channel ${v.channel}`, text: `Add the channel to ${v.pkg.name}'s olm.deprecations.`, fields,
      build: () => ({ op: 'deprecate', package: v.pkg.name, channel: v.channel, message: required(message, 'A message') }) });
  }

  function undeprecateChannel() {
    const v = view();
    open({ heading: `Undeprecate channel ${v.channel}`, text: `Remove the channel's entry from ${v.pkg.name}'s olm.deprecations.`, build: () => ({ op: 'undeprecate', package: v.pkg.name, channel: v.channel }) });
  }

  function deprecatePackage() {
    const pkg = view().pkg.name;
    const { message, fields } = deprecationFields('edit-deprecate-package-message', `The ${pkg} package`);
    open({ heading: `Deprecate the package ${pkg}`, text: `Add the package itself to ${pkg}'s olm.deprecations.`, fields,
      build: () => ({ op: 'deprecate', package: pkg, message: required(message, 'A message') }) });
  }

  function undeprecatePackage() {
    const pkg = view().pkg.name;
    open({ heading: `Undeprecate the package ${pkg}`, text: `Remove the package's entry from its olm.deprecations.`, build: () => ({ op: 'undeprecate', package: pkg }) });
  }

  // ---- undo, redo, save (the aside's Edits section)
  const undoBtn = $('edit-undo');
  const redoBtn = $('edit-redo');
  const saveBtn = $('edit-download');
  const folderBtn = $('edit-save-folder');
  const statusEl = $('edit-status');
  const changedList = $('edit-changed');
  const canPickFolder = typeof window.showDirectoryPicker === 'function';
  let folder = null; // the folder picked once (FileSystemDirectoryHandle)

  function showStatus(st, message) {
    $('edits').hidden = false;
    undoBtn.disabled = !st.undo;
    redoBtn.disabled = !st.redo;
    undoBtn.textContent = st.undo ? `Undo ${st.undo}` : 'Undo';
    redoBtn.textContent = st.redo ? `Redo ${st.redo}` : 'Redo';
    saveBtn.disabled = !st.changed.length;
    saveBtn.textContent = st.changed.length > 1 ? `Download ${st.changed.length} files (zip)` : 'Download changed file';
    folderBtn.hidden = !canPickFolder;
    folderBtn.disabled = !st.changed.length;
    changedList.replaceChildren(...st.changed.map((p) => h('li', {}, p)));
    $('edit-changed-h').textContent = st.changed.length ? `Changed since saved (${st.changed.length})` : 'No unsaved changes';
    if (message !== undefined) statusEl.textContent = message;
    document.body.dataset.editChanged = String(st.changed.length);
  }

  async function step(op, verb) {
    const c = deps.main();
    if (!c || busy) return;
    busy = true;
    try {
      const out = await call(op, c.handle);
      await deps.adopt(out.catalog, out.paths);
      showStatus(out.status, `${verb}: ${out.label}.`);
      document.body.dataset.editSteps = String((Number(document.body.dataset.editSteps) || 0) + 1);
    } catch (e) {
      statusEl.textContent = e.message;
    } finally {
      busy = false;
    }
  }
  undoBtn.addEventListener('click', () => step('editUndo', 'Undone'));
  redoBtn.addEventListener('click', () => step('editRedo', 'Redone'));

  async function download() {
    const c = deps.main();
    const { files, zip } = await call('editChanged', c.handle, { zip: true });
    if (!files.length) return;
    if (files.length === 1) {
      const f = files[0];
      deps.download(f.path.split('/').pop(), f.content, f.path.endsWith('.json') ? 'application/json' : 'text/yaml');
    } else {
      deps.download('catalog-changes.zip', new Blob([zip], { type: 'application/zip' }), 'application/zip');
    }
    showStatus(await call('editSaved', c.handle), `Downloaded ${files.length === 1 ? files[0].path : `${files.length} files as catalog-changes.zip`}.`);
  }
  saveBtn.addEventListener('click', download);

  // ---- writing back into a folder (folder.js): refused when the folder changed underneath
  const conflictBox = $('edit-conflict');
  /** Each file's `lastModified` as read from the folder or last written there (path → ms). */
  const stamps = new Map();
  const clock = (ms) => new Date(ms).toLocaleTimeString('en-GB');
  const WHY = {
    changed: (c) => `${c.path} changed in the folder${stamps.has(c.path) && c.lastModified !== stamps.get(c.path) ? ` (at ${clock(c.lastModified)})` : ''}`,
    deleted: (c) => `${c.path} was deleted from the folder`,
    exists: (c) => `${c.path}, which the edits create, already exists in the folder`,
  };

  function showConflict(conflicts) {
    statusEl.textContent = `Not saved, nothing was written: ${conflicts.map((c) => WHY[c.why](c)).join('; ')} since it was opened or last saved there. Reload the catalog from the folder (dropping your unsaved edits), or overwrite the folder's copy with yours.`;
    conflictBox.hidden = false;
    document.body.dataset.editConflicts = String(conflicts.length);
  }
  function hideConflict() {
    conflictBox.hidden = true;
    delete document.body.dataset.editConflicts;
  }

  /**
   * Write the changed files into a folder the user picks (the catalog's root), once asked: only
   * when every file there still holds what the edits started from (`force`: whatever it holds),
   * all or nothing.
   */
  async function saveToFolder({ force = false } = {}) {
    const c = deps.main();
    if (!c || busy) return;
    busy = true;
    hideConflict();
    try {
      folder ??= await window.showDirectoryPicker({ id: 'olm-catalog', mode: 'readwrite' });
      if ((await folder.requestPermission?.({ mode: 'readwrite' })) === 'denied') throw new Error('writing to that folder was not allowed');
      const { files } = await call('editChanged', c.handle);
      const found = await checkFolder(folder, files);
      if (found.conflicts.length && !force) return showConflict(found.conflicts);
      // The last look just before the files are committed (not after "overwrite anyway").
      const verify = force ? undefined : async () => {
        const { conflicts } = await checkFolder(folder, files);
        if (conflicts.length) throw new SaveError('the folder changed while saving', { conflicts });
      };
      const written = await writeAll(folder, files, { previous: found.current, verify });
      for (const [path, ms] of written) stamps.set(path, ms);
      const saved = await call('editSaved', c.handle, { files: files.map(({ path, content }) => ({ path, content })), folder: true });
      showStatus(saved, `Saved ${plural(files.length, 'file')} to the folder ${folder.name}${force ? ', over the folder\'s copy' : ''}.`);
      document.body.dataset.editFolderSaves = String((Number(document.body.dataset.editFolderSaves) || 0) + 1);
    } catch (e) {
      if (e.name === 'AbortError') return; // the picker was closed
      if (e.conflicts?.length) return showConflict(e.conflicts);
      if (!(e instanceof SaveError)) folder = null;
      statusEl.textContent = `Could not save to the folder: ${e.message}`;
      document.body.dataset.editSaveFailures = String((Number(document.body.dataset.editSaveFailures) || 0) + 1);
    } finally {
      busy = false;
    }
  }
  folderBtn.addEventListener('click', () => saveToFolder());
  $('edit-overwrite').addEventListener('click', () => saveToFolder({ force: true }));
  $('edit-reload-folder').addEventListener('click', async () => {
    if (!folder || busy) return;
    hideConflict();
    try {
      await deps.load(await readFolder(folder));
    } catch (e) {
      statusEl.textContent = `Could not read the folder: ${e.message}`;
    }
  });

  return {
    /** The package's and channel's actions (above the graph), and the selected bundle's (below it). */
    elements: { pkg: pkgBox, node: nodeBox },
    /**
     * Preview `op` (an `EditOperation`, e.g. a diff finding's `fix`) in the edit dialog, `why`
     * (the finding) as its text: only Apply changes the files.
     */
    proposeFix(op, why) {
      open({ heading: 'Suggested fix', text: why, build: () => op });
    },
    /** A node was picked in the graph. */
    select(node) {
      selected = node?.kind === 'bundle' ? node : null;
      renderNodeActions();
    },
    /** The package or channel on screen changed (or the catalog did): redraw the toolbars. */
    refresh() {
      if (selected && !graphNode(selected.name)) selected = null;
      renderPackageActions();
      renderNodeActions();
    },
    /**
     * A catalog was opened (`files`: as given to the worker, `{path, blob}` for files read from
     * disk): forget the selection; remember when each file was last modified; show the edit state.
     */
    async loaded(files = []) {
      selected = null;
      hideConflict();
      stamps.clear();
      for (const f of Array.isArray(files) ? files : []) if (f.blob?.lastModified) stamps.set(f.path, f.blob.lastModified);
      const c = deps.main();
      if (c) showStatus(await call('editStatus', c.handle), '');
    },
  };
}
