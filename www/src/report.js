// The validation report: findings grouped by package (with counts per severity), filtered by
// severity, code and package and searched as you type. Every finding is drawn once per load (a
// slice at a time, so the page never blocks); filtering only shows and hides what is drawn and
// rewrites the counts, so it stays instant with thousands of findings.
import { h } from './escape.js';

const SEVERITIES = ['error', 'warning', 'note'];
const plural = (n, what) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

// Catalogs keep one directory per package, so a finding belongs to its file's directory; for files
// at the root, to the package the message names first.
export function packageOf(d) {
  if (d.file.includes('/')) return d.file.slice(0, d.file.indexOf('/'));
  const m = /^(?:invalid )?package "([^"]+)"/.exec(d.message);
  return m ? m[1] : d.file || '(catalog)';
}

/** Counts per severity as text: "2 errors, 1 warning". */
function severityCounts(counts) {
  return SEVERITIES.filter((s) => counts[s]).map((s) => plural(counts[s], s)).join(', ');
}

/**
 * The report in `container`, its filters in `filters` (both elements, emptied here).
 * `openFile(file, line, column)` runs when a finding is picked; `sliced(items, fn, wanted)` runs
 * `fn` on each item, yielding to the page between slices (false when `wanted()` turned false).
 * @returns {{ render(diagnostics: any[], wanted: () => boolean): Promise<boolean> }}
 */
export function createReport({ container, filters, openFile, sliced }) {
  /** @type {{li: HTMLElement, d: any, pkg: string, text: string}[]} */
  let items = [];
  /** package → { section, counts: HTMLElement, total: Record<string, number> } */
  let groups = new Map();

  const search = h('input', { id: 'report-search', type: 'search', placeholder: 'message, file or code', autocomplete: 'off', spellcheck: 'false' });
  const severity = Object.fromEntries(SEVERITIES.map((s) => [s, h('input', { type: 'checkbox', id: `report-${s}`, checked: true })]));
  const severityLabels = Object.fromEntries(SEVERITIES.map((s) => [s, h('span', { class: 'n' })]));
  const code = h('select', { id: 'report-code' });
  const pkg = h('select', { id: 'report-package' });
  const shown = h('span', { id: 'report-shown', class: 'muted', 'aria-live': 'polite' });
  const clear = h('button', { type: 'button', id: 'report-clear' }, 'Show all');
  filters.textContent = '';
  const field = (id, label, control) => h('span', { class: 'field' }, h('label', { for: id }, label), ' ', control);
  filters.append(
    field('report-search', 'Search', search),
    h('span', { class: 'severities', role: 'group', 'aria-label': 'Severity' },
      SEVERITIES.map((s) => h('label', { class: `sev ${s}` }, severity[s], ` ${s}s `, severityLabels[s]))),
    field('report-code', 'Code', code),
    field('report-package', 'Package', pkg),
    clear, shown,
  );

  function options(select, all, counts) {
    const keep = select.value;
    select.textContent = '';
    select.append(h('option', { value: '' }, all));
    for (const [k, n] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) select.append(h('option', { value: k }, `${k} (${n})`));
    select.value = counts.has(keep) ? keep : '';
  }

  /** Show the findings that pass the filters; rewrite the counts. */
  function apply() {
    const q = search.value.trim().toLowerCase();
    const wantCode = code.value;
    const wantPkg = pkg.value;
    const perGroup = new Map();
    let n = 0;
    for (const it of items) {
      const ok = severity[it.d.severity]?.checked !== false && (!wantCode || it.d.code === wantCode)
        && (!wantPkg || it.pkg === wantPkg) && (!q || it.text.includes(q));
      if (it.li.hidden === ok) it.li.hidden = !ok;
      if (ok) {
        n++;
        perGroup.set(it.pkg, (perGroup.get(it.pkg) ?? 0) + 1);
      }
    }
    for (const [name, g] of groups) {
      const count = perGroup.get(name) ?? 0;
      g.section.hidden = count === 0;
      const all = Object.values(g.total).reduce((a, b) => a + b, 0);
      g.counts.textContent = count === all ? severityCounts(g.total) : `${count} of ${plural(all, 'finding')} shown`;
    }
    shown.textContent = n === items.length ? plural(n, 'finding') : `${n.toLocaleString('en-US')} of ${plural(items.length, 'finding')} shown`;
    container.dataset.shown = String(n);
  }

  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; apply(); });
  };
  search.addEventListener('input', later);
  for (const el of [...Object.values(severity), code, pkg]) el.addEventListener('change', apply);
  clear.addEventListener('click', () => {
    search.value = '';
    code.value = '';
    pkg.value = '';
    for (const s of SEVERITIES) severity[s].checked = true;
    apply();
  });

  function finding(d) {
    return h('li', {}, h('button', {
      type: 'button', class: `diag ${d.severity}`, 'data-code': d.code,
      onclick: () => openFile(d.file, d.line, d.column),
    }, h('span', { class: 'where' }, `${d.file}:${d.line}:${d.column}`), ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message));
  }

  return {
    /** Draw `diagnostics` a slice at a time; false when `wanted()` turned false meanwhile. */
    async render(diagnostics, wanted) {
      const byPackage = new Map();
      const codes = new Map();
      const bySeverity = { error: 0, warning: 0, note: 0 };
      for (const d of diagnostics) {
        const k = packageOf(d);
        if (!byPackage.has(k)) byPackage.set(k, []);
        byPackage.get(k).push(d);
        codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
        bySeverity[d.severity] = (bySeverity[d.severity] ?? 0) + 1;
      }
      items = [];
      groups = new Map();
      container.textContent = '';
      container.className = 'report';
      filters.hidden = diagnostics.length === 0;
      for (const s of SEVERITIES) severityLabels[s].textContent = `(${bySeverity[s]})`;
      options(code, 'All codes', codes);
      options(pkg, 'All packages', new Map([...byPackage].map(([k, list]) => [k, list.length])));
      if (!diagnostics.length) container.append(h('p', { class: 'muted' }, 'No findings.'));
      let ul = null;
      let pkgName = '';
      const sorted = [...byPackage].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const list = sorted.flatMap(([name, ds]) => [{ group: name, ds }, ...ds]);
      const done = await sliced(list, (x) => {
        if (x.group !== undefined) {
          pkgName = x.group;
          ul = h('ul');
          const total = { error: 0, warning: 0, note: 0 };
          for (const d of x.ds) total[d.severity] = (total[d.severity] ?? 0) + 1;
          const counts = h('span', { class: 'counts' }, severityCounts(total));
          const section = h('section', { class: 'group', 'data-package': x.group }, h('h3', {}, h('span', { class: 'pkg' }, x.group), ' ', counts), ul);
          groups.set(x.group, { section, counts, total });
          container.append(section);
          return;
        }
        const li = finding(x);
        items.push({ li, d: x, pkg: pkgName, text: `${x.file} ${x.code} ${x.severity} ${x.message}`.toLowerCase() });
        ul.append(li);
      }, wanted);
      if (done) apply();
      return done;
    },
  };
}
