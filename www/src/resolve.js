// The Resolve panel: catalog sources (the catalog loaded on the left and an optional second one,
// each with a name and a priority, all in one namespace), subscriptions and installed operators,
// and what OLM v0 would install and why — or, when nothing satisfies the constraints, OLM's error
// and the explanation tree. The resolution itself is the wasm module's `resolve`, in the worker.
import { call, open } from './remote.js';
import { h } from './escape.js';

const $ = (id) => document.getElementById(id);
const byName = (a, b) => a.localeCompare(b, 'en', { numeric: true });

/**
 * @param {object} o
 * @param {() => import('./remote.js').RemoteCatalog | null} o.main the catalog loaded on the left
 * @param {(name: string) => Promise<import('olm-catalog').CatalogFile[]>} o.exampleFiles
 * @param {(list: FileList, stripRoot: boolean) => object[]} o.readFiles
 */
export function createResolvePanel({ main, exampleFiles, readFiles }) {
  let second = null; // { catalog, label }
  const subs = []; // { row, source, pkg, channel, csv, name }
  const installed = []; // { row, name, version }
  const packagesOf = new WeakMap();

  // ---- catalog sources
  const source = (i) => (i === 1 ? main() : i === 2 ? second?.catalog ?? null : null);
  const sourceName = (i) => $(`resolve-src${i}-name`).value.trim() || `catalog-${i}`;
  const available = () => [1, 2].filter((i) => source(i));
  function packages(i) {
    const c = source(i);
    if (!c) return [];
    if (!packagesOf.has(c)) packagesOf.set(c, [...c.packages].sort((a, b) => byName(a.name, b.name)));
    return packagesOf.get(c);
  }
  // Every bundle of a package (name and version), from its channel graphs.
  async function bundles(i, pkg) {
    const c = source(i);
    if (!c) return [];
    return [...await c.bundles(pkg)].sort((a, b) => byName(a[0], b[0]));
  }

  function options(select, list, value) {
    select.textContent = '';
    for (const [v, label] of list) select.append(h('option', { value: v }, label));
    if (list.some(([v]) => v === value)) select.value = value;
    return select.value;
  }

  // ---- subscriptions
  // The source, package and channel lists are filled at once; the installed-CSV list when the
  // package's bundles arrive (unless the row was filled again meanwhile).
  function fillSub(s) {
    const src = options(s.source, available().map((i) => [String(i), `${i}: ${sourceName(i)}`]), s.source.value);
    const pkgs = packages(Number(src));
    const pkgName = options(s.pkg, pkgs.map((p) => [p.name, p.name]), s.pkg.value);
    const p = pkgs.find((x) => x.name === pkgName);
    const chans = p ? [...p.channels].sort((a, b) => (a.name === p.defaultChannel ? -1 : b.name === p.defaultChannel ? 1 : byName(a.name, b.name))) : [];
    const keepChannel = s.channel.dataset.pkg === pkgName ? s.channel.value : p?.defaultChannel;
    s.channel.dataset.pkg = pkgName;
    options(s.channel, chans.map((c) => [c.name, `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}`]), keepChannel ?? '');
    const keepCsv = s.csv.dataset.pkg === pkgName ? s.csv.value : '';
    s.csv.dataset.pkg = pkgName;
    const turn = (s.turn ?? 0) + 1;
    s.turn = turn;
    if (!p) { options(s.csv, [['', 'none']], ''); return; }
    bundles(Number(src), pkgName).then((list) => {
      if (s.turn === turn) options(s.csv, [['', 'none'], ...list.map(([n, v]) => [n, v ? `${n} (${v})` : n])], keepCsv);
    }, () => {});
  }
  // Subscription names follow their package, numbered when a package is subscribed to twice.
  function nameSubs() {
    const count = new Map();
    subs.forEach((s, k) => {
      const n = (count.get(s.pkg.value) ?? 0) + 1;
      count.set(s.pkg.value, n);
      s.name = n === 1 ? s.pkg.value : `${s.pkg.value}-${n}`;
      s.row.firstChild.textContent = s.name;
      s.row.dataset.subscription = s.name;
      for (const [el, what] of [[s.source, 'Catalog source'], [s.pkg, 'Package'], [s.channel, 'Channel'], [s.csv, 'Installed CSV']]) {
        el.setAttribute('aria-label', `${what} of subscription ${k + 1}`);
      }
    });
  }
  function addSub() {
    const s = { source: h('select', { class: 'sub-source' }), pkg: h('select', { class: 'sub-package' }), channel: h('select', { class: 'sub-channel' }), csv: h('select', { class: 'sub-csv' }) };
    const remove = h('button', { type: 'button', class: 'remove', onclick: () => {
      subs.splice(subs.indexOf(s), 1);
      s.row.remove();
      nameSubs();
      $('resolve-add-sub').focus();
    } }, 'Remove');
    s.row = h('tr', {}, h('td', { class: 'sub-name' }), h('td', {}, s.source), h('td', {}, s.pkg), h('td', {}, s.channel), h('td', {}, s.csv), h('td', {}, remove));
    const refresh = () => { fillSub(s); nameSubs(); };
    for (const el of [s.source, s.pkg, s.channel]) el.addEventListener('change', refresh);
    subs.push(s);
    $('resolve-subs').querySelector('tbody').append(s.row);
    refresh();
    remove.setAttribute('aria-label', `Remove subscription ${s.name}`);
    s.pkg.focus();
  }

  // ---- installed operators without a subscription
  function addInstalled() {
    const k = installed.length + 1;
    const o = { name: h('input', { class: 'inst-name', placeholder: 'e.g. my-operator.v1.0.0', 'aria-label': `Name of installed operator ${k}` }),
      version: h('input', { class: 'inst-version', placeholder: 'e.g. 1.0.0', size: 10, 'aria-label': `Version of installed operator ${k}` }) };
    const remove = h('button', { type: 'button', class: 'remove', 'aria-label': `Remove installed operator ${k}`, onclick: () => {
      installed.splice(installed.indexOf(o), 1);
      o.row.remove();
      $('resolve-add-installed').focus();
    } }, 'Remove');
    o.row = h('tr', {}, h('td', {}, o.name), h('td', {}, o.version), h('td', {}, remove));
    installed.push(o);
    $('resolve-installed').querySelector('tbody').append(o.row);
    o.name.focus();
  }

  // ---- the second catalog
  async function loadSecond(files, label) {
    let catalog;
    try {
      catalog = await open('resolve-2', files);
    } catch (e) {
      $('resolve-src2-desc').textContent = `Could not load ${label}: ${e.message}`;
      return;
    }
    second = { catalog, label };
    refresh();
  }
  function describe(i) {
    const c = source(i);
    const el = $(`resolve-src${i}-desc`);
    if (!c) { el.textContent = i === 1 ? 'No catalog loaded: open one on the left.' : 'Not loaded.'; return; }
    const n = packages(i).length;
    const { valid } = c.report;
    el.textContent = `${i === 2 ? `${second.label}: ` : 'The catalog loaded on the left: '}${n} package${n === 1 ? '' : 's'}${valid ? '' : ' (invalid)'}`;
  }

  /** Re-read the catalogs (after either one changes) and keep what still applies. */
  function refresh() {
    describe(1);
    describe(2);
    $('resolve-src2-remove').hidden = !second;
    $('resolve-add-sub').disabled = available().length === 0;
    for (const s of subs) fillSub(s);
    nameSubs();
  }

  // ---- resolving and the outcome
  async function problem() {
    const namespace = $('resolve-namespace').value.trim();
    const catalogs = available().map((i) => ({ name: sourceName(i), namespace, priority: Math.trunc(Number($(`resolve-src${i}-priority`).value)) || 0, handle: source(i).handle }));
    const inst = new Map();
    const subscriptions = [];
    for (const s of subs) {
      const sub = { name: s.name, package: s.pkg.value, channel: s.channel.value, catalog: sourceName(Number(s.source.value)), catalogNamespace: namespace };
      if (s.csv.value) {
        sub.installedCSV = s.csv.value;
        const version = (await bundles(Number(s.source.value), s.pkg.value)).find(([n]) => n === s.csv.value)?.[1] ?? '';
        inst.set(s.csv.value, { name: s.csv.value, version, properties: [] });
      }
      subscriptions.push(sub);
    }
    for (const o of installed) {
      const name = o.name.value.trim();
      if (name && !inst.has(name)) inst.set(name, { name, version: o.version.value.trim(), properties: [] });
    }
    return { namespace, catalogs, installed: [...inst.values()], subscriptions };
  }

  function status(text, cls) {
    const el = $('resolve-status');
    el.textContent = text;
    el.className = `summary ${cls}`;
  }

  // The explanation as a nested list. The conflicting requirements show; below them, a lone node
  // shows too, but when a requirement lists its candidates one by one their reasons fold (they
  // repeat long constraint texts).
  function tree(x, depth = 0, alone = true) {
    if (!x.children?.length) return h('li', {}, x.message);
    const open = depth < 2 || (depth === 2 && alone);
    return h('li', {}, h('details', { open }, h('summary', {}, x.message),
      h('ul', {}, x.children.map((c) => tree(c, depth + 1, x.children.length === 1)))));
  }

  // A pick's requirement (OLM's constraint message, listing its candidates): asked of the worker
  // when first opened, since the resolver formats these texts on demand. `resolution` is the run
  // the pick belongs to: once another has started, the worker answers for that one's picks only.
  function requirement(index, resolution) {
    const text = h('div', { class: 'mono' }, '…');
    const details = h('details', {}, h('summary', {}, 'requirement'), text);
    let asked = false;
    details.addEventListener('toggle', async () => {
      if (!details.open || asked || resolution !== runs) return;
      asked = true;
      try {
        text.textContent = (await call('requiredBy', index)) ?? '';
      } catch (e) {
        asked = false;
        text.textContent = `${e.code ? `${e.code}: ` : ''}${e.message}`;
      }
    });
    return details;
  }

  let runs = 0; // resolutions started, to tell which one the shown picks belong to

  async function run() {
    const out = $('resolve-output');
    out.textContent = '';
    const incomplete = subs.findIndex((s) => !s.source.value || !s.pkg.value);
    if (incomplete >= 0) {
      status(`Subscription ${incomplete + 1} needs a catalog source with a package: load a catalog or remove it.`, 'invalid');
      return;
    }
    const p = await problem();
    if (p.catalogs.length === 2 && p.catalogs[0].name === p.catalogs[1].name) {
      status('The two catalog sources need different names.', 'invalid');
      return;
    }
    let r;
    const resolution = ++runs;
    try {
      // The resolver lives in a second, larger module, fetched the first time it is needed.
      status('Resolving (the resolver is fetched the first time)…', '');
      r = await call('resolve', p);
    } catch (e) {
      status(`${e.code ? `${e.code}: ` : ''}${e.message}`, 'invalid');
      return;
    }
    if (r.errorType) {
      const what = { NotSatisfiable: 'no choice of bundles meets every constraint', TooHard: 'the solver gave up', Error: 'the problem cannot be resolved' };
      status(`${r.errorType}: ${what[r.errorType] ?? 'resolution failed'}`, 'invalid');
      out.append(h('h3', {}, 'Errors'), h('ul', { id: 'resolve-errors', class: 'errors', tabindex: 0, 'aria-label': 'Errors' }, r.errors.map((e) => h('li', {}, e))));
      if (r.explanation) {
        out.append(h('h3', {}, 'Explanation'), h('ul', { id: 'resolve-explanation', class: 'tree' }, tree(r.explanation)));
      }
      return;
    }
    const n = r.install.length;
    status(n ? `Resolved: ${n} bundle${n === 1 ? '' : 's'} to install or upgrade to` : 'Resolved: nothing to install or upgrade', 'valid');
    if (n) {
      out.append(h('h3', {}, 'Install'), h('table', { id: 'resolve-install', class: 'rtable' },
        h('thead', {}, h('tr', {}, ['Bundle', 'Package', 'Version', 'Channel', 'Catalog source', 'Replaces', 'Starting CSV'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, r.install.map((i) => h('tr', { 'data-bundle': i.name },
          h('td', { class: 'mono' }, i.name), h('td', {}, i.package), h('td', {}, i.version), h('td', {}, i.channel),
          h('td', {}, `${i.catalogNamespace}/${i.catalog}`), h('td', { class: 'mono' }, i.replaces ?? '—'), h('td', { class: 'mono' }, i.startingCSV ?? '—'))))));
    }
    if (r.picks.length) {
      out.append(h('h3', {}, 'Why'), h('ol', { id: 'resolve-picks', class: 'picks' }, r.picks.map((p, i) => h('li', { 'data-bundle': p.name },
        h('span', { class: 'mono' }, p.name), p.installed ? h('span', { class: 'tag' }, 'installed') : null,
        h('div', { class: 'why' }, p.why),
        p.requester ? h('div', { class: 'muted rank' }, `required by ${p.requester}: candidate ${p.rank} of ${p.candidates}`) : null,
        p.requester ? requirement(i, resolution) : null,
        p.rejected.length ? h('div', { class: 'rejected' }, `passed over (cannot be installed with the rest): ${p.rejected.join(', ')}`) : null))));
    }
  }

  // ---- wiring
  $('resolve-add-sub').addEventListener('click', addSub);
  $('resolve-add-installed').addEventListener('click', addInstalled);
  $('resolve-go').addEventListener('click', run);
  for (const i of [1, 2]) $(`resolve-src${i}-name`).addEventListener('input', () => { for (const s of subs) fillSub(s); });
  $('resolve-src2-example').addEventListener('change', async (ev) => {
    const name = ev.target.value;
    if (name) loadSecond(await exampleFiles(name), ev.target.selectedOptions[0].textContent);
  });
  $('resolve-src2-files').addEventListener('change', async (ev) => {
    const list = ev.target.files;
    if (list.length) loadSecond(await readFiles(list, false), `${list.length} file${list.length === 1 ? '' : 's'}`);
  });
  $('resolve-src2-remove').addEventListener('click', () => {
    if (second) call('close', 'resolve-2');
    second = null;
    $('resolve-src2-example').value = '';
    $('resolve-src2-files').value = '';
    refresh();
  });

  return { refresh };
}
