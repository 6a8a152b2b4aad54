// The Install panel: a bundle of the catalog loaded on the left, the OperatorGroup it would join
// (an install mode, the operator's namespace and its target namespaces) and optional tenants (one
// instance of the package per tenant); then what OLM would do: supported, or the failure reason
// and message it gives the CSV, the annotations it writes, the install modes and what each kind
// of group watches, the roles it generates as a verbs × resources table per service account, and
// the multitenancy findings. The analysis is the wasm module's `checkOperatorGroups` and
// `previewRbac`, run in the worker; this file only moves data between them and the DOM.
import { h } from './escape.js';

const $ = (id) => document.getElementById(id);
const byName = (a, b) => a.localeCompare(b, 'en', { numeric: true });
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const MODES = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];
/** The order of verb columns: reads first, then writes, then the rest alphabetically. */
const VERBS = ['*', 'get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const ALL = 'all namespaces';

/** `"a, b"` → `["a", "b"]`; an empty text is all namespaces (`[""]`). */
function namespaceList(text) {
  const list = text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
  return list.length ? [...new Set(list)] : [''];
}
/** The install mode a group with `targets` calls for, its operator in `namespace`. */
function modeOf(targets, namespace) {
  if (targets.length === 1 && targets[0] === '') return 'AllNamespaces';
  if (targets.length === 1 && targets[0] === namespace) return 'OwnNamespace';
  return targets.length === 1 ? 'SingleNamespace' : 'MultiNamespace';
}
const showTargets = (targets) => (targets.length === 1 && targets[0] === '' ? ALL : targets.join(', '));

/**
 * @param {object} o
 * @param {() => import('./remote.js').RemoteCatalog | null} o.main the catalog loaded on the left
 * @param {(file: string, line?: number, column?: number) => void} o.openFile show a place in the editor
 * @param {(name: string, text: string, type: string) => void} o.download save a file
 */
export function createInstallPanel({ main, openFile, download }) {
  const tenants = []; // { row, namespace, targets, bundle }
  let plan = null; // the selected bundle's install plan (from a check), or null
  let planError = null;
  // Each change of package or bundle starts a turn; replies of an older turn are dropped.
  let turn = 0;

  // ---- the bundle
  function packages() {
    const c = main();
    return c ? [...c.packages].sort((a, b) => byName(a.name, b.name)) : [];
  }
  /** The bundles of `pkg` (name, version), newest first, and its default channel's head. */
  async function bundles(pkg) {
    const c = main();
    const seen = c && pkg ? await c.bundles(pkg) : [];
    const p = packages().find((x) => x.name === pkg);
    const head = p?.channels.find((ch) => ch.name === p.defaultChannel)?.head ?? null;
    return { list: [...seen].sort((a, b) => byName(b[1] || b[0], a[1] || a[0])), head };
  }
  function options(select, list, value) {
    select.textContent = '';
    for (const [v, label] of list) select.append(h('option', { value: v }, label));
    if (list.some(([v]) => v === value)) select.value = value;
    return select.value;
  }
  async function bundleOptions(pkg) {
    const { list, head } = await bundles(pkg);
    return { head, list: list.map(([n, v]) => [n, `${n}${v ? ` (${v})` : ''}${n === head ? ' — default channel head' : ''}`]) };
  }
  async function fillBundles(keep) {
    const mine = ++turn;
    const pkg = $('inst-package').value;
    const { list, head } = await bundleOptions(pkg);
    if (mine !== turn) return;
    options($('inst-bundle'), list, keep ?? head ?? '');
    for (const t of tenants) options(t.bundle, list, t.bundle.dataset.pkg === pkg ? t.bundle.value : $('inst-bundle').value);
    for (const t of tenants) t.bundle.dataset.pkg = pkg;
    await readPlan(mine);
  }

  /** The selected bundle's install modes and CSV flavour, read from a check in its own namespace. */
  async function readPlan(mine = ++turn) {
    const c = main();
    const pkg = $('inst-package').value;
    const bundle = $('inst-bundle').value;
    let [p, error] = [null, null];
    if (c && pkg && bundle) {
      try {
        p = (await c.checkOperatorGroups({ package: pkg, bundle, operatorNamespace: 'operators', targetNamespaces: [''] })).installPlan;
      } catch (e) {
        error = e.message;
      }
    }
    if (mine !== turn) return;
    [plan, planError] = [p, error];
    describeBundle();
  }
  function describeBundle() {
    const desc = $('inst-bundle-desc');
    desc.className = 'note';
    for (const m of MODES) {
      const mark = $(`inst-mode-${m}-mark`);
      const supported = plan?.installModes.find((x) => x.mode === m)?.supported;
      mark.textContent = plan && !supported ? 'not supported by the CSV' : '';
      $(`inst-mode-${m}`).setAttribute('aria-describedby', plan && !supported ? `inst-mode-${m}-mark` : '');
    }
    if (!main()) { desc.textContent = 'No catalog loaded: open one on the left.'; return; }
    if (!$('inst-package').value) { desc.textContent = 'The catalog has no packages.'; return; }
    if (planError) { desc.textContent = planError; desc.classList.add('stranded'); return; }
    if (!plan) { desc.textContent = 'The package has no bundles.'; return; }
    const supported = plan.installModes.filter((m) => m.supported).map((m) => m.mode);
    desc.textContent = `CSV ${plan.csvName ?? $('inst-bundle').value} from ${plan.source}; install modes: ${supported.length ? supported.join(', ') : 'none'}${plan.providedApis ? `; provides ${plan.providedApis}` : ''}.`;
    if (plan.source === 'olm.csv.metadata') {
      desc.append(' ', h('strong', {}, "This catalog's CSV metadata carries no permissions"),
        ' (olm.csv.metadata keeps no install strategy): the roles OLM generates from them cannot be shown. Catalogs in the olm.bundle.object flavour carry them (try the bundled example with bundle objects).');
    }
  }

  // ---- the group: install mode, namespace, targets
  const mode = () => document.querySelector('input[name="inst-mode"]:checked')?.value ?? 'AllNamespaces';
  const namespace = () => $('inst-namespace').value.trim() || 'operators';
  const targets = () => {
    const t = namespaceList($('inst-targets').value);
    return mode() === 'OwnNamespace' ? [namespace()] : t;
  };
  /** Picking a mode fills in targets of its shape, keeping what fits. */
  function pickMode(m) {
    const input = $('inst-targets');
    const now = namespaceList(input.value).filter((t) => t && t !== namespace());
    if (m === 'OwnNamespace') input.value = namespace();
    else if (m === 'SingleNamespace') input.value = now[0] ?? 'tenant-a';
    else if (m === 'MultiNamespace') input.value = (now.length >= 2 ? now : [...now, 'tenant-a', 'tenant-b'].filter((x, i, a) => a.indexOf(x) === i).slice(0, 2)).join(', ');
    else input.value = '';
  }
  /** Typing targets selects the mode they call for. */
  function syncMode() {
    const m = modeOf(namespaceList($('inst-targets').value), namespace());
    $(`inst-mode-${m}`).checked = true;
  }

  // ---- tenants
  function nameTenants() {
    tenants.forEach((t, k) => {
      t.row.firstChild.textContent = String(k + 1);
      t.namespace.setAttribute('aria-label', `Operator namespace of tenant ${k + 1}`);
      t.targets.setAttribute('aria-label', `Target namespaces of tenant ${k + 1} (empty: all namespaces)`);
      t.bundle.setAttribute('aria-label', `Bundle of tenant ${k + 1}`);
      t.remove.setAttribute('aria-label', `Remove tenant ${k + 1}`);
    });
  }
  function removeTenant(t) {
    tenants.splice(tenants.indexOf(t), 1);
    t.row.remove();
    nameTenants();
  }
  function addTenant() {
    const letter = String.fromCharCode(97 + (tenants.length % 26));
    const t = {
      namespace: h('input', { class: 'tenant-namespace', value: `tenant-${letter}-operator`, size: 18, spellcheck: 'false' }),
      targets: h('input', { class: 'tenant-targets', value: `tenant-${letter}`, size: 22, spellcheck: 'false', placeholder: ALL }),
      bundle: h('select', { class: 'tenant-bundle' }),
    };
    t.remove = h('button', { type: 'button', class: 'remove', onclick: () => { removeTenant(t); $('inst-add-tenant').focus(); } }, 'Remove');
    t.row = h('tr', {}, h('th', { scope: 'row' }), h('td', {}, t.namespace), h('td', {}, t.targets), h('td', {}, t.bundle), h('td', {}, t.remove));
    const pkg = $('inst-package').value;
    t.bundle.dataset.pkg = pkg;
    const chosen = $('inst-bundle').value;
    options(t.bundle, [[chosen, chosen]], chosen);
    bundleOptions(pkg).then(({ list }) => { if (t.bundle.dataset.pkg === pkg) options(t.bundle, list, t.bundle.value); }, () => {});
    tenants.push(t);
    $('inst-tenants').querySelector('tbody').append(t.row);
    nameTenants();
    t.namespace.focus();
  }

  // ---- running the check and the preview
  let runs = 0;
  function status(text, cls) {
    const el = $('inst-status');
    el.textContent = text;
    el.className = `summary ${cls}`;
  }

  async function run() {
    const out = $('inst-output');
    out.textContent = '';
    const c = main();
    const pkg = $('inst-package').value;
    const bundle = $('inst-bundle').value;
    if (!c || !pkg || !bundle) { status('Pick a package and a bundle of a loaded catalog first.', 'invalid'); return; }
    const ns = namespace();
    const tns = targets();
    const instances = tenants.map((t) => ({ namespace: t.namespace.value.trim(), bundle: t.bundle.value, targetNamespaces: namespaceList(t.targets.value) }));
    const missing = instances.findIndex((i) => !i.namespace || !i.bundle);
    if (missing >= 0) { status(`Tenant ${missing + 1} needs an operator namespace and a bundle.`, 'invalid'); return; }
    const mine = ++runs;
    let report;
    let previews = [];
    let rbacError = null;
    const rbacOptions = { package: pkg, bundle, installMode: modeOf(tns, ns), namespace: ns, targetNamespaces: tns };
    const [checked, rbac] = await Promise.allSettled([
      c.checkOperatorGroups({ package: pkg, bundle, operatorNamespace: ns, targetNamespaces: tns, instances }),
      c.previewRbac(rbacOptions),
    ]);
    if (mine !== runs) return; // a later run shows its own outcome
    if (checked.status === 'rejected') {
      const e = checked.reason;
      status(`${e.code ? `${e.code}: ` : ''}${e.message}`, 'invalid');
      return;
    }
    report = checked.value;
    if (rbac.status === 'fulfilled') previews = Array.isArray(rbac.value) ? rbac.value : [rbac.value];
    else rbacError = rbac.reason.message;
    const o = report.membership.outcome;
    const who = `${bundle} in namespace "${ns}", watching ${showTargets(tns)}`;
    if (o.outcome === 'supported') status(`Supported: OLM accepts ${who}`, 'valid');
    else if (o.outcome === 'failed') status(`Failed: ${o.reason}`, 'invalid');
    else status(`Not processed: ${who}`, 'invalid');
    out.append(
      outcomeView(report),
      annotationsView(report.membership),
      planView(report.installPlan, modeOf(tns, ns)),
      rbacView(previews, rbacError, report.installPlan, () => saveManifests(c, rbacOptions)),
      tenantsView(report.multitenancy ?? [], instances.length),
    );
  }

  function section(id, title, ...body) {
    return h('section', { class: 'inst-section', id, 'aria-labelledby': `${id}-title` }, h('h3', { id: `${id}-title` }, title), ...body);
  }

  function outcomeView(report) {
    const m = report.membership;
    const o = m.outcome;
    const verdict = o.outcome === 'failed'
      ? h('div', { class: 'inst-verdict failed', id: 'inst-verdict', 'data-reason': o.reason },
        h('div', {}, 'The CSV fails: ', h('span', { class: 'mono' }, 'status.phase: Failed')),
        h('div', {}, h('span', { class: 'mono' }, 'status.reason: '), h('strong', { class: 'mono inst-reason' }, o.reason)),
        h('div', {}, h('span', { class: 'mono' }, 'status.message: '), h('span', { class: 'inst-message' }, o.message)),
        h('div', { class: 'note' }, 'Not terminal: OLM retries when the cause goes away.'))
      : o.outcome === 'supported'
        ? h('div', { class: 'inst-verdict supported', id: 'inst-verdict', 'data-reason': 'supported' },
          `Supported: the OperatorGroup checks pass${m.operatorGroup ? ` in ${m.operatorGroup}` : ''}, and the CSV goes on to Pending (its requirements are checked next).`)
        : h('div', { class: 'inst-verdict failed', id: 'inst-verdict', 'data-reason': o.outcome }, `OLM does not process the CSV: ${o.message}`);
    return section('inst-outcome', 'What OLM does', verdict,
      m.syncs.length ? h('ol', { class: 'inst-syncs', 'aria-label': 'OLM syncs, in order' }, m.syncs.map((s) => h('li', {}, s))) : null,
      m.intersectingGroups.length ? h('p', {}, `Intersecting groups: ${m.intersectingGroups.join(', ')}`) : null);
  }

  function annotationsView(m) {
    const rows = Object.entries(m.csvAnnotations).map(([k, v]) => h('tr', {}, h('td', {}, 'CSV'), h('td', { class: 'mono' }, k), h('td', { class: 'mono' }, JSON.stringify(v))));
    if (m.providedApisAfter !== null && m.providedApisAfter !== undefined) {
      rows.push(h('tr', {}, h('td', {}, 'OperatorGroup'), h('td', { class: 'mono' }, 'olm.providedAPIs'),
        h('td', { class: 'mono' }, `${JSON.stringify(m.providedApisBefore ?? '')} → ${JSON.stringify(m.providedApisAfter)}`)));
    }
    return section('inst-annotations', 'Annotations OLM writes', rows.length
      ? h('table', { class: 'rtable', id: 'inst-annotations-table' },
        h('thead', {}, h('tr', {}, ['On', 'Annotation', 'Value'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, rows))
      : h('p', { class: 'muted' }, 'None: OLM stops before annotating the CSV.'));
  }

  function planView(p, chosen) {
    const lints = p.diagnostics ?? [];
    return section('inst-plan', 'Install modes',
      h('p', {}, `From ${p.source}${p.providedApis ? `; provided APIs: ` : ''}`, p.providedApis ? h('span', { class: 'mono' }, p.providedApis) : null),
      h('table', { class: 'rtable', id: 'inst-plan-table' },
        h('thead', {}, h('tr', {}, ['Install mode', 'CSV', 'A group of this kind watches', 'OLM'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, p.watches.map((w) => h('tr', { 'data-mode': w.mode, class: w.mode === chosen ? 'chosen' : '' },
          h('th', { scope: 'row' }, w.mode, w.mode === chosen ? h('span', { class: 'tag' }, 'chosen') : null),
          h('td', {}, p.installModes.find((m) => m.mode === w.mode)?.supported ? 'supported' : 'not supported'),
          h('td', {}, w.watches),
          h('td', { class: w.supported ? 'ok' : 'bad' }, w.supported ? 'accepts the CSV' : w.message ?? 'fails the CSV'))))),
      lints.length ? h('ul', { class: 'inst-findings', 'aria-label': 'Install mode lints' }, lints.map(finding)) : null);
  }

  // ---- RBAC
  /** Download the previewed objects as Kubernetes manifests, as `olm-catalog rbac --format yaml` writes them. */
  async function saveManifests(c, options) {
    try {
      download(`${options.bundle}-${options.installMode}-rbac.yaml`, await c.rbacManifests(options), 'application/yaml');
    } catch (e) {
      status(`${e.code ? `${e.code}: ` : ''}${e.message}`, 'invalid');
    }
  }

  function rbacView(previews, error, p, save) {
    if (error) return section('inst-rbac', 'Roles OLM generates', h('p', { class: 'note stranded' }, error));
    const preview = previews[0];
    if (!preview || !preview.permissionsKnown) {
      return section('inst-rbac', 'Roles OLM generates', h('p', { class: 'inst-nopermissions', id: 'inst-nopermissions' },
        h('strong', {}, "This catalog's CSV metadata carries no permissions"),
        `: the bundle's CSV comes from ${p.source}, which keeps the install modes and APIs but no install strategy, so the Roles and ClusterRoles OLM makes from the CSV's permissions cannot be previewed. Catalogs in the olm.bundle.object flavour carry them.`));
    }
    const body = [];
    if (preview.unsupported) body.push(h('p', { class: 'note stranded' }, `OLM fails this CSV (${preview.unsupported}): of these, only the install plan's objects would exist.`));
    for (const sa of preview.serviceAccounts) body.push(accountView(sa, preview.access.filter((a) => a.serviceAccount === sa), preview.target));
    body.push(objectsView(preview));
    body.push(h('p', { class: 'inst-manifests' },
      h('button', { type: 'button', id: 'inst-download-yaml', onclick: save }, 'Download manifests (YAML)'),
      ' ', h('span', { class: 'muted' }, `These ${plural(objectCount(preview), 'object')} as Kubernetes manifests, one YAML document each, named and labelled as OLM makes them: for kubectl apply --dry-run=server, or a diff against kubectl get -o yaml (owner references left out).`)));
    if (preview.notes.length) body.push(h('ul', { class: 'note inst-notes' }, preview.notes.map((n) => h('li', {}, n))));
    return section('inst-rbac', 'Roles OLM generates', ...body);
  }

  /** One service account: a verbs × resources table per namespace, then cluster-wide. */
  function accountView(sa, access, target) {
    const scopes = new Map();
    for (const a of access) {
      const k = a.namespace ?? '';
      if (!scopes.has(k)) scopes.set(k, []);
      scopes.get(k).push(a);
    }
    const ordered = [...scopes.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a === target.operatorNamespace ? -1 : b === target.operatorNamespace ? 1 : byName(a, b)));
    return h('div', { class: 'inst-account', 'data-service-account': sa },
      h('h4', {}, 'Service account ', h('span', { class: 'mono' }, sa), ` (namespace ${target.operatorNamespace})`),
      ordered.map((ns) => grantTable(sa, ns, scopes.get(ns))));
  }

  function grantTable(sa, ns, rows) {
    const used = new Set(rows.flatMap((r) => r.verbs));
    const verbs = [...VERBS.filter((v) => used.has(v)), ...[...used].filter((v) => !VERBS.includes(v)).sort()];
    const caption = ns === '' ? 'Cluster-wide (every namespace, and cluster-scoped resources)' : `In namespace ${ns}`;
    const resource = (r) => (r.nonResourceUrl ? r.resource : r.apiGroup ? `${r.resource}.${r.apiGroup}` : r.resource);
    return h('table', { class: 'rtable grants', 'data-scope': ns === '' ? 'cluster' : ns, 'aria-label': `What ${sa} may do: ${caption}` },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Resource'), verbs.map((v) => h('th', { scope: 'col', class: 'verb' }, v)))),
      h('tbody', {}, rows.map((r) => h('tr', { 'data-resource': r.resource },
        h('th', { scope: 'row', class: 'mono' }, resource(r),
          r.nonResourceUrl ? h('span', { class: 'tag' }, 'URL') : null,
          r.resourceNames.length ? h('span', { class: 'muted' }, ` only ${r.resourceNames.join(', ')}`) : null),
        verbs.map((v) => (r.verbs.includes(v) ? h('td', { class: 'verb yes', title: `${v} ${resource(r)}` }, '✓', h('span', { class: 'visually-hidden' }, ` ${v}`)) : h('td', { class: 'verb' })))))));
  }

  function objectCount(p) {
    return p.serviceAccounts.length + p.groupClusterRoles.length + p.apiClusterRoles.length + p.roles.length + p.roleBindings.length + p.clusterRoles.length + p.clusterRoleBindings.length;
  }

  function objectsView(p) {
    const rows = [];
    const role = (kind, r) => rows.push(h('tr', {}, h('td', {}, kind), h('td', { class: 'mono' }, r.name), h('td', {}, r.namespace ?? '—'),
      h('td', {}, r.aggregationSelectors?.length ? `aggregates ${r.aggregationSelectors.map((s) => Object.entries(s).map(([k, v]) => `${k}=${v}`).join(',')).join('; ')}` : plural(r.rules.length, 'rule'))));
    const binding = (kind, b) => rows.push(h('tr', {}, h('td', {}, kind), h('td', { class: 'mono' }, b.name), h('td', {}, b.namespace ?? '—'),
      h('td', {}, `${b.roleKind} ${b.roleName} → ${b.serviceAccountNamespace}/${b.serviceAccount}`)));
    for (const sa of p.serviceAccounts) rows.push(h('tr', {}, h('td', {}, 'ServiceAccount'), h('td', { class: 'mono' }, sa), h('td', {}, p.target.operatorNamespace), h('td', {}, '—')));
    for (const r of p.groupClusterRoles) role('ClusterRole (group)', r);
    for (const r of p.apiClusterRoles) role('ClusterRole (API)', r);
    for (const r of p.roles) role('Role', r);
    for (const b of p.roleBindings) binding('RoleBinding', b);
    for (const r of p.clusterRoles) role('ClusterRole', r);
    for (const b of p.clusterRoleBindings) binding('ClusterRoleBinding', b);
    return h('details', { class: 'inst-objects' }, h('summary', {}, `The ${plural(rows.length, 'object')} OLM creates for OperatorGroup ${p.target.operatorGroup}`),
      h('table', { class: 'rtable', id: 'inst-objects-table' },
        h('thead', {}, h('tr', {}, ['Kind', 'Name', 'Namespace', 'Grants'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, rows)));
  }

  // ---- multitenancy
  function finding(d) {
    const where = d.file ? `${d.file}${d.line ? `:${d.line}:${d.column}` : ''}` : '';
    return h('li', {}, h('button', { type: 'button', class: `diag ${d.severity}`, 'data-code': d.code, onclick: () => d.file && openFile(d.file, d.line, d.column) },
      where ? h('span', { class: 'where' }, where) : null, ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message));
  }
  function tenantsView(findings, n) {
    const body = n === 0
      ? h('p', { class: 'muted' }, 'No tenants: add one instance of the package per tenant above to check the limits of running it several times.')
      : findings.length
        ? h('ul', { class: 'inst-findings', id: 'inst-findings', 'aria-label': 'Multitenancy findings' }, findings.map(finding))
        : h('p', {}, `No findings for the ${plural(n, 'tenant')}.`);
    return section('inst-multitenancy', 'Multitenancy', body);
  }

  // ---- wiring
  /** Re-read the catalog loaded on the left, keeping the selection that still applies. */
  function refresh() {
    const list = packages();
    const had = $('inst-package').value;
    const pkg = options($('inst-package'), list.map((p) => [p.name, p.name]), had);
    for (const id of ['inst-package', 'inst-bundle', 'inst-add-tenant', 'inst-go']) $(id).disabled = !pkg;
    if (pkg !== had) for (const t of [...tenants]) removeTenant(t);
    fillBundles(pkg === had ? $('inst-bundle').value : undefined).catch(() => {});
    $('inst-output').textContent = '';
    status('', '');
  }
  $('inst-package').addEventListener('change', () => fillBundles().catch(() => {}));
  $('inst-bundle').addEventListener('change', () => readPlan().catch(() => {}));
  for (const m of MODES) $(`inst-mode-${m}`).addEventListener('change', () => pickMode(m));
  $('inst-targets').addEventListener('input', syncMode);
  $('inst-namespace').addEventListener('input', () => { if (mode() === 'OwnNamespace') pickMode('OwnNamespace'); else syncMode(); });
  $('inst-add-tenant').addEventListener('click', addTenant);
  $('inst-go').addEventListener('click', run);
  $('panel-install').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && ev.target instanceof HTMLInputElement && ev.target.type === 'text') run();
  });
  pickMode(mode());
  return { refresh };
}
