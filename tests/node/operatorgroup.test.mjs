// OperatorGroup checks and RBAC previews through the npm package: the Node CLI prints exactly what
// the native CLI prints (stdout, stderr, exit code), the API's results have the shapes index.d.ts
// declares, and misuse throws OlmCatalogError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');
const community = join(repo, '../shared/catalogs/fbc/community-v4.16');
const kubeGreen = join(community, 'kube-green');
const ecr = join(community, 'ecr-secret-operator');
const cases = JSON.parse(readFileSync(join(repo, '../shared/conformance/operatorgroup.json'), 'utf8'));
const supportCases = cases.filter((c) => c.kind === 'installmode-supports');
const MODES = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Both CLIs on the same arguments: identical stdout, stderr and exit code; the Node result. */
function same(args, expectedCode) {
  const a = run(cli, args);
  const b = run(native, args);
  assert.equal(a.code, b.code, `exit code of ${args.join(' ')}: ${a.err}`);
  if (expectedCode !== undefined) assert.equal(a.code, expectedCode, a.err);
  assert.equal(a.out, b.out, `stdout of ${args.join(' ')}`);
  assert.deepEqual(a.err.split('\n'), b.err.split('\n'), `stderr of ${args.join(' ')}`);
  return a;
}

function withTemp(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'og-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const keys = (o) => Object.keys(o).sort();
const invalid = (e) => e instanceof Error && e.name === 'OlmCatalogError' && e.code === 'invalid-input';

function assertDiagnostic(d) {
  for (const k of ['code', 'severity', 'message', 'file', 'line', 'column', 'pointer']) assert.ok(k in d, k);
}

/** An `OperatorGroupReport` as index.d.ts declares it. */
function assertReportShape(r) {
  const top = ['bundle', 'installPlan', 'membership', 'namespace'];
  assert.deepEqual(keys(r), 'multitenancy' in r ? [...top, 'multitenancy'].sort() : top);
  const m = r.membership;
  assert.deepEqual(keys(m), ['apiReconciliation', 'csvAnnotations', 'intersectingGroups', 'operatorGroup', 'outcome', 'providedApisAfter', 'providedApisBefore', 'syncs']);
  const o = m.outcome;
  if (o.outcome === 'supported') assert.deepEqual(keys(o), ['outcome']);
  else if (o.outcome === 'failed') assert.deepEqual(keys(o), ['message', 'outcome', 'reason']);
  else assert.ok(['stalled', 'invalidGroup'].includes(o.outcome) && typeof o.message === 'string', JSON.stringify(o));
  for (const a of m.apiReconciliation) assert.ok(['RemoveAPIs', 'AddAPIs', 'APIConflict', 'NoAPIConflict'].includes(a));
  const p = r.installPlan;
  assert.deepEqual(keys(p), ['csvName', 'diagnostics', 'installModes', 'operatorNamespace', 'providedApis', 'source', 'watches']);
  assert.ok(['olm.bundle.object', 'olm.csv.metadata'].includes(p.source));
  for (const s of p.installModes) assert.deepEqual(keys(s), ['mode', 'supported']);
  for (const w of p.watches) {
    assert.deepEqual(keys(w), ['message', 'mode', 'supported', 'targetNamespaces', 'watches']);
    assert.ok(MODES.includes(w.mode));
  }
  for (const d of [...p.diagnostics, ...(r.multitenancy ?? [])]) assertDiagnostic(d);
}

/** An `RbacPreview` as index.d.ts declares it. */
function assertPreviewShape(p) {
  assert.deepEqual(keys(p), ['access', 'apiClusterRoles', 'clusterRoleBindings', 'clusterRoles', 'csvName', 'groupClusterRoles', 'notes', 'permissionCheckError', 'permissionsKnown', 'roleBindings', 'roles', 'serviceAccounts', 'target', 'unsupported']);
  assert.deepEqual(keys(p.target), ['installMode', 'operatorGroup', 'operatorNamespace', 'targetNamespaces']);
  const roleKeys = ['aggregationSelectors', 'labels', 'lifted', 'name', 'namespace', 'rules'];
  for (const role of [...p.groupClusterRoles, ...p.apiClusterRoles, ...p.roles, ...p.clusterRoles]) {
    assert.ok(keys(role).every((k) => roleKeys.includes(k)), keys(role).join());
    for (const rule of role.rules) {
      assert.ok(Array.isArray(rule.verbs));
      assert.ok(keys(rule).every((k) => ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'].includes(k)));
    }
  }
  const bindingKeys = ['labels', 'name', 'namespace', 'roleKind', 'roleName', 'serviceAccount', 'serviceAccountNamespace'];
  for (const b of [...p.roleBindings, ...p.clusterRoleBindings]) {
    assert.ok(keys(b).every((k) => bindingKeys.includes(k)), keys(b).join());
    assert.ok(['Role', 'ClusterRole'].includes(b.roleKind));
  }
  for (const a of p.access) {
    assert.deepEqual(keys(a), ['apiGroup', 'namespace', 'nonResourceUrl', 'resource', 'resourceNames', 'serviceAccount', 'verbs']);
  }
}

test('operatorgroup: every install-mode conformance case, both CLIs agree and the API gives the expected outcome', () => {
  withTemp((dir) => {
    for (const c of supportCases) {
      const file = join(dir, `${c.id.replaceAll('/', '_')}.json`);
      writeFileSync(file, JSON.stringify(c.input));
      const code = c.expect.error === null ? 0 : 1;
      same(['operatorgroup', file], code);
      same(['operatorgroup', file, '--format', 'json'], code);
      const r = olm.checkOperatorGroups(c.input);
      assertReportShape(r);
      if (c.expect.error === null) assert.equal(r.membership.outcome.outcome, 'supported', c.id);
      else {
        // The case tests `Supports` alone; a whole sync may stop earlier (NoTargetNamespaces).
        const o = r.membership.outcome;
        assert.notEqual(o.outcome, 'supported', c.id);
        if (['UnsupportedOperatorGroup', 'InvalidInstallModes'].includes(o.reason)) assert.ok(o.message.includes(c.expect.error), `${c.id}: ${o.message}`);
      }
      assert.equal(olm.checkOperatorGroupsText(c.input), run(native, ['operatorgroup', file]).out);
    }
  });
});

test('operatorgroup: a real bundle from a catalog path, with groups and tenant instances', () => {
  withTemp((dir) => {
    const namespaces = [{ name: 'operators' }, { name: 'team-a', labels: { tenant: 'a' } }];
    const checks = {
      global: { path: kubeGreen, package: 'kube-green', bundle: 'kube-green.v0.7.1', operatorNamespace: 'operators', namespaces, operatorGroups: [{ name: 'global', namespace: 'operators' }] },
      tenant: { path: kubeGreen, package: 'kube-green', bundle: 'kube-green.v0.7.1', operatorNamespace: 'operators', namespaces, operatorGroups: [{ name: 'tenant', namespace: 'operators', selector: { matchLabels: { tenant: 'a' } } }] },
      // `path` relative to the check file; unknown fields are ignored by both CLIs.
      relative: { path: 'catalog', description: 'ignored', package: 'kube-green', bundle: 'kube-green.v0.7.1', operatorNamespace: 'operators', targetNamespaces: [''] },
      tenants: {
        path: ecr, package: 'ecr-secret-operator', bundle: 'ecr-secret-operator.v0.5.0', operatorNamespace: 'op-a',
        operatorGroups: [
          { name: 'a', namespace: 'op-a', targetNamespaces: ['team-a'] },
          { name: 'b', namespace: 'op-b', targetNamespaces: ['team-b', 'team-a'], providedAPIsAnnotation: 'X.v1.x.io' },
        ],
        instances: [{ namespace: 'op-a', bundle: 'ecr-secret-operator.v0.5.0' }, { namespace: 'op-b', bundle: 'ecr-secret-operator.v0.4.1' }],
      },
      unknownBundle: { path: kubeGreen, package: 'kube-green', bundle: 'kube-green.v9', operatorNamespace: 'operators' },
      missingBundle: { path: kubeGreen, operatorNamespace: 'operators' },
    };
    mkdirSync(join(dir, 'catalog'));
    writeFileSync(join(dir, 'catalog/catalog.yaml'), readFileSync(join(kubeGreen, 'catalog.yaml')));
    const expected = { global: 0, tenant: 1, relative: 0, tenants: 0, unknownBundle: 2, missingBundle: 2 };
    for (const [name, check] of Object.entries(checks)) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(check));
      same(['operatorgroup', file], expected[name]);
      same(['operatorgroup', file, '--format', 'json'], expected[name]);
    }
    // The API: the catalog loaded once, the bundle named in it.
    const catalog = olm.loadCatalog(olm.readCatalog(ecr));
    try {
      const { path: _path, ...rest } = checks.tenants;
      const r = olm.checkOperatorGroups({ ...rest, catalog });
      assertReportShape(r);
      assert.equal(r.bundle, 'ecr-secret-operator.v0.5.0');
      assert.deepEqual(r.membership.intersectingGroups, ['b/op-b']);
      assert.ok(r.multitenancy.some((d) => d.code === 'multitenancy-version-skew'));
      assert.deepEqual(catalog.checkOperatorGroups(rest), r);
      const file = join(dir, 'tenants.json');
      assert.equal(olm.checkOperatorGroupsText({ ...rest, catalog }), run(native, ['operatorgroup', file]).out);
      assert.throws(() => olm.checkOperatorGroups({ ...rest, catalog, bundle: 'nope' }), (e) => e.code === 'unknown-bundle');
      assert.throws(() => olm.checkOperatorGroups({ ...rest, catalog, package: 'nope' }), (e) => e.code === 'unknown-package');
    } finally {
      catalog.free();
    }
  });
});

test('rbac: kube-green under each install mode, and by default, both CLIs agree', () => {
  for (const format of ['text', 'json', 'yaml']) {
    same(['rbac', kubeGreen, '--package', 'kube-green', '--format', format], 0);
    for (const mode of MODES) {
      // kube-green supports only AllNamespaces: the other modes preview what exists, exit 1.
      same(['rbac', kubeGreen, '--package', 'kube-green', '--install-mode', mode, '--format', format], mode === 'AllNamespaces' ? 0 : 1);
    }
  }
  same(['rbac', kubeGreen, '--package', 'kube-green', '--bundle', 'kube-green.v0.5.2', '--install-mode', 'MultiNamespace', '--target-namespaces', 'a,b,c', '--namespace', 'ops', '--operator-group', 'og']);
  same(['rbac', ecr, '--package', 'ecr-secret-operator', '--format', 'json'], 0);
  // Manifests: one install mode, named or the only one the CSV supports; several is a usage error.
  same(['rbac', ecr, '--package', 'ecr-secret-operator', '--format', 'yaml', '--install-mode', 'MultiNamespace', '--target-namespaces', 'a,b'], 0);
  same(['rbac', ecr, '--package', 'ecr-secret-operator', '--format', 'yaml'], 2);
  // Errors: unknown package or bundle, target namespaces that do not fit the mode.
  same(['rbac', kubeGreen, '--package', 'nope'], 2);
  same(['rbac', kubeGreen, '--package', 'kube-green', '--bundle', 'nope'], 2);
  same(['rbac', kubeGreen, '--package', 'kube-green', '--install-mode', 'OwnNamespace', '--target-namespaces', 'x'], 2);
});

test('previewRbac: one preview per mode, shaped as index.d.ts, text and YAML as the CLI prints', () => {
  const catalog = olm.loadCatalog(olm.readCatalog(kubeGreen));
  try {
    const all = olm.previewRbac(catalog, { package: 'kube-green' });
    assert.deepEqual(all.map((p) => p.target.installMode), ['AllNamespaces']);
    for (const mode of MODES) {
      const [p, ...rest] = olm.previewRbac(catalog, { package: 'kube-green', installMode: mode });
      assert.equal(rest.length, 0);
      assertPreviewShape(p);
      assert.equal(p.target.installMode, mode);
      assert.equal(p.unsupported === null, mode === 'AllNamespaces');
      assert.ok(p.permissionsKnown);
      const args = ['rbac', kubeGreen, '--package', 'kube-green', '--install-mode', mode];
      assert.deepEqual(JSON.parse(run(native, [...args, '--format', 'json']).out), [p]);
      assert.equal(olm.previewRbacText(catalog, { package: 'kube-green', installMode: mode }), run(native, args).out);
      assert.equal(catalog.previewRbacText({ package: 'kube-green', installMode: mode }, 'yaml'), run(native, [...args, '--format', 'yaml']).out);
    }
    const p = catalog.previewRbac({ package: 'kube-green', bundle: 'kube-green.v0.6.0', installMode: 'SingleNamespace', namespace: 'ops', operatorGroup: 'og', targetNamespaces: ['team'] })[0];
    assert.deepEqual(p.target, { installMode: 'SingleNamespace', operatorNamespace: 'ops', operatorGroup: 'og', targetNamespaces: ['team'] });
    assert.equal(p.csvName, 'kube-green.v0.6.0');
    assert.throws(() => olm.previewRbac(catalog, { package: 'nope' }), (e) => e.name === 'OlmCatalogError' && e.code === 'unknown-package');
    assert.throws(() => olm.previewRbac(catalog, { package: 'kube-green', bundle: 'nope' }), (e) => e.code === 'unknown-bundle');
  } finally {
    catalog.free();
  }
});

test('previewRbacText yaml: the objects OLM creates as Kubernetes manifests, with the names OLM gives them', () => {
  const catalog = olm.loadCatalog(olm.readCatalog(ecr));
  try {
    const options = { package: 'ecr-secret-operator', installMode: 'AllNamespaces' };
    const yaml = olm.previewRbacText(catalog, options, 'yaml');
    assert.equal(yaml, run(native, ['rbac', ecr, '--package', 'ecr-secret-operator', '--install-mode', 'AllNamespaces', '--format', 'yaml']).out);
    const docs = yaml.split(/^---\n/m);
    const [p] = olm.previewRbac(catalog, options);
    const objects = p.serviceAccounts.length + p.groupClusterRoles.length + p.apiClusterRoles.length + p.clusterRoles.length
      + p.clusterRoleBindings.length + p.roles.length + p.roleBindings.length;
    assert.equal(docs.length, objects);
    assert.ok(docs.every((d) => /^apiVersion: /m.test(d) && /^kind: /m.test(d) && /^metadata:\n/m.test(d)), yaml);
    // The Role's name and labels as OLM's code makes them for this CSV; lifted to a ClusterRole.
    const role = 'ecr-secret-operator.v0.5-1e5S4DonNXkwmbiXKHmqMtZvRqxEwLmOdUhy8j';
    assert.ok(p.clusterRoles.some((r) => r.name === role && r.lifted === true), JSON.stringify(p.clusterRoles));
    assert.ok(docs.some((d) => d.includes('kind: Role\n') && d.includes(`  name: ${role}\n`) && d.includes('    olm.permissions.hash: jFynzryran0Td5CUgJ3rwrkK6ZdYd35f5iILp\n')));
    assert.equal(p.permissionCheckError, null);
    assert.throws(() => olm.previewRbacText(catalog, { package: 'ecr-secret-operator' }, 'yaml'),
      (e) => e.code === 'invalid-input' && /manifests are for one install mode/.test(e.message));
  } finally {
    catalog.free();
  }
});

test('misuse of checkOperatorGroups and previewRbac throws OlmCatalogError with code invalid-input', () => {
  const inline = supportCases[1].input;
  assert.throws(() => olm.checkOperatorGroups(null), invalid);
  assert.throws(() => olm.checkOperatorGroups('check'), invalid);
  assert.throws(() => olm.checkOperatorGroups({}), invalid); // no operatorNamespace
  assert.throws(() => olm.checkOperatorGroups({ ...inline, operatorgroups: [] }), invalid); // misspelt field
  assert.throws(() => olm.checkOperatorGroups({ ...inline, path: 'catalog' }), invalid); // no file system here
  assert.throws(() => olm.checkOperatorGroups({ ...inline, catalog: {} }), invalid); // not a Catalog
  assert.throws(() => olm.checkOperatorGroups({ ...inline, package: 'p', bundle: 'b' }), invalid); // no catalog
  assert.throws(() => olm.checkOperatorGroups({ ...inline, instances: [{ namespace: 'a', bundle: 'b' }] }), invalid);
  assert.throws(() => olm.checkOperatorGroupsText({ ...inline, operatorNamespace: 7 }), invalid);
  const catalog = olm.loadCatalog(olm.readCatalog(kubeGreen));
  try {
    assert.throws(() => olm.checkOperatorGroups({ catalog, operatorNamespace: 'ops' }), invalid); // no package/bundle
    assert.throws(() => olm.previewRbac(catalog, {}), invalid);
    assert.throws(() => olm.previewRbac(catalog), invalid);
    assert.throws(() => olm.previewRbac(catalog, { package: 'kube-green', installMode: 'Everywhere' }), invalid);
    assert.throws(() => olm.previewRbac(catalog, { package: 'kube-green', mode: 'OwnNamespace' }), invalid);
    assert.throws(() => olm.previewRbac(catalog, { package: 'kube-green', installMode: 'AllNamespaces', targetNamespaces: ['a'] }), invalid);
    assert.throws(() => olm.previewRbac({}, { package: 'kube-green' }), invalid);
    assert.throws(() => olm.previewRbacText(catalog, { package: 'kube-green' }, 'xml'), invalid);
  } finally {
    catalog.free();
  }
});
