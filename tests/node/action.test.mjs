// The GitHub Action (action.yml, action/index.mjs) run as the runner runs it: `node` on its entry
// point in a git repository holding a real catalog (two packages of community-v4.20), with a base
// commit and a head commit that adds a finding, the pull_request event's payload at
// GITHUB_EVENT_PATH, the inputs as INPUT_* variables, and the files the runner reads afterwards
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the SARIF file), which the tests read back.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = process.env.REPO ?? fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(REPO, 'action', 'index.mjs');
const FBC = join(REPO, '..', 'shared', 'catalogs', 'fbc', 'community-v4.20');

let root;
let workspace;
let base;
let head;

const git = (...args) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' }).trim();

/** Replace `from` by `to` in the catalog file `file` of the workspace (it must be there). */
function edit(file, from, to) {
  const path = join(workspace, file);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.includes(from), `${file} has ${from}`);
  writeFileSync(path, text.replace(from, to));
}

before(() => {
  root = mkdtempSync(join(tmpdir(), 'olm-action-'));
  workspace = join(root, 'repo');
  for (const p of ['nfs-provisioner-operator', 'kubevirt-wol']) cpSync(join(FBC, p), join(workspace, 'catalog', p), { recursive: true });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  // Findings the base already has: an entry of kubevirt-wol without its bundle, which makes two
  // heads of its channel.
  edit('catalog/kubevirt-wol/catalog.yaml', '- name: kubevirt-wol.v0.0.2\nname: stable-v0', '- name: kubevirt-wol.v0.0.2\n- name: kubevirt-wol.v0.0.1\nname: stable-v0');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  base = git('rev-parse', 'HEAD');
  // The pull request adds a new one: nfs-provisioner-operator.v0.0.10 in a channel, with no bundle.
  git('switch', '-q', '-c', 'add-v0.0.10');
  edit(
    'catalog/nfs-provisioner-operator/catalog.yaml',
    '  replaces: nfs-provisioner-operator.v0.0.8\nname: alpha',
    '  replaces: nfs-provisioner-operator.v0.0.8\n- name: nfs-provisioner-operator.v0.0.10\n  replaces: nfs-provisioner-operator.v0.0.9\nname: alpha',
  );
  git('commit', '-q', '-am', 'add v0.0.10');
  head = git('rev-parse', 'HEAD');
});

after(() => rmSync(root, { recursive: true, force: true }));

/** A pull_request event's payload as GitHub sends it (the fields that matter, and their neighbours). */
function pullRequestEvent() {
  const repository = { id: 1, name: 'catalog', full_name: 'example/catalog', default_branch: 'main' };
  return {
    action: 'synchronize',
    number: 7,
    before: base,
    after: head,
    pull_request: {
      number: 7,
      state: 'open',
      title: 'Add nfs-provisioner-operator v0.0.10',
      head: { label: 'example:add-v0.0.10', ref: 'add-v0.0.10', sha: head, repo: repository },
      base: { label: 'example:main', ref: 'main', sha: base, repo: repository },
    },
    repository,
    sender: { login: 'maintainer', type: 'User' },
  };
}

/** Run the entry point as the runner does; what it printed and the files it wrote. */
function runAction(inputs, { event = pullRequestEvent(), checkout = workspace, entry = ENTRY } = {}) {
  const dir = mkdtempSync(join(root, 'run-'));
  const files = { event: join(dir, 'event.json'), summary: join(dir, 'summary.md'), output: join(dir, 'output') };
  writeFileSync(files.event, JSON.stringify(event));
  writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? root,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_WORKSPACE: checkout,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    RUNNER_TEMP: dir,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const run = spawnSync(process.execPath, [entry], { cwd: checkout, env, encoding: 'utf8' });
  const outputs = Object.fromEntries(
    readFileSync(files.output, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s, 2)),
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, summary: readFileSync(files.summary, 'utf8'), outputs };
}

const annotations = (stdout) => stdout.split('\n').filter((l) => l.startsWith('::error file=') || l.startsWith('::warning file='));

test('a pull request adding a finding: only the new one is annotated, on its changed line, and fails the step', () => {
  const sarif = 'results.sarif';
  const run = runAction({ paths: 'catalog\n', sarif });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.deepEqual(run.outputs, { errors: '3', warnings: '0', 'new-findings': '1' });
  const [annotation, ...others] = annotations(run.stdout);
  assert.deepEqual(others, [], run.stdout);
  assert.match(annotation, /^::error file=catalog\/nfs-provisioner-operator\/catalog\.yaml,line=(\d+),col=\d+,title=entry-without-bundle::.*v0\.0\.10/);
  const line = Number(/line=(\d+)/.exec(annotation)[1]);
  // The annotated line is one the pull request added.
  const added = git('diff', '-U0', base, head, '--', 'catalog/nfs-provisioner-operator/catalog.yaml');
  assert.match(added, new RegExp(`^@@ -\\S+ \\+${line}(,\\d+)? @@`, 'm'), added);
  assert.match(run.stdout, /^::error::1 new finding\(s\) at or above fail-on: error$/m);
  // The job summary: the counts, validate's Markdown report of the new finding, and the diff.
  assert.match(run.summary, /\*\*1 new finding\*\* \(against `[0-9a-f]{12}`\); the catalogs have 3 errors, 0 warnings, 0 notes\./);
  assert.match(run.summary, /### olm-catalog validate/);
  assert.match(run.summary, /\| ❌ error \| `entry-without-bundle` \| `catalog\/nfs-provisioner-operator\/catalog\.yaml:\d+:\d+` \|/);
  assert.doesNotMatch(run.summary, /kubevirt-wol\.v0\.0\.1/, 'the finding the base had is not reported');
  assert.match(run.summary, /### olm-catalog diff/);
  assert.match(run.summary, /#### Update safety: `nfs-provisioner-operator`/);
  assert.match(run.summary, /\| `alpha` \| `nfs-provisioner-operator\.v0\.0\.9` \| at head → 1 step via nfs-provisioner-operator\.v0\.0\.10 \|/);
  // The SARIF file holds every finding of the head, the old one included.
  const log = JSON.parse(readFileSync(join(workspace, sarif), 'utf8'));
  assert.equal(log.version, '2.1.0');
  const results = log.runs.flatMap((r) => r.results);
  assert.deepEqual(results.map((r) => r.ruleId).sort(), ['entry-without-bundle', 'entry-without-bundle', 'multiple-channel-heads']);
  rmSync(join(workspace, sarif));
});

test('fail-on: never reports the new finding without failing; baseline: none makes every finding new', () => {
  const never = runAction({ paths: 'catalog', 'fail-on': 'never' });
  assert.equal(never.status, 0, never.stdout + never.stderr);
  assert.equal(never.outputs['new-findings'], '1');
  assert.match(never.summary, /✅ no new finding at or above `fail-on: never`/);
  const none = runAction({ paths: 'catalog', baseline: 'none' });
  assert.equal(none.status, 1);
  assert.deepEqual(none.outputs, { errors: '3', warnings: '0', 'new-findings': '3' });
  assert.equal(annotations(none.stdout).length, 3, none.stdout);
  assert.match(none.summary, /no baseline: every finding counts as new/);
  assert.doesNotMatch(none.summary, /olm-catalog diff/);
});

test('a baseline given as a commit, and a catalog the base did not have', () => {
  // Against the head itself nothing is new.
  const same = runAction({ paths: 'catalog/nfs-provisioner-operator', baseline: head, 'fail-on': 'note' });
  assert.equal(same.status, 0, same.stdout + same.stderr);
  assert.equal(same.outputs['new-findings'], '0');
  // A package added by the pull request: every finding of it is new, and the summary says so.
  cpSync(join(workspace, 'catalog', 'nfs-provisioner-operator'), join(workspace, 'more', 'nfs-provisioner-operator'), { recursive: true });
  try {
    const added = runAction({ paths: 'more' });
    assert.equal(added.status, 1, added.stdout + added.stderr);
    assert.equal(added.outputs['new-findings'], '1');
    assert.match(added.summary, /New in this change: the base commit has no `more`\./);
  } finally {
    rmSync(join(workspace, 'more'), { recursive: true });
  }
});

test('a shallow checkout (actions/checkout with its default depth) fetches the base commit from origin', () => {
  const clone = join(root, 'shallow');
  execFileSync('git', ['clone', '-q', '--depth=1', '--branch', 'add-v0.0.10', `file://${workspace}`, clone]);
  assert.notEqual(spawnSync('git', ['cat-file', '-e', `${base}^{commit}`], { cwd: clone }).status, 0, 'the clone lacks the base');
  const run = runAction({ paths: 'catalog' }, { checkout: clone });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.deepEqual(run.outputs, { errors: '3', warnings: '0', 'new-findings': '1' });
  rmSync(clone, { recursive: true, force: true });
});

test('without a built package beside it, the action runs the one installed in the workspace', () => {
  // The action alone, as a checkout of this repository without pkg/dist has it.
  const bare = join(root, 'bare-action');
  cpSync(join(REPO, 'action'), join(bare, 'action'), { recursive: true });
  const entry = join(bare, 'action', 'index.mjs');
  const missing = runAction({ paths: 'catalog' }, { entry });
  assert.equal(missing.status, 1);
  assert.match(missing.stdout, /^::error::no built olm-catalog package: looked in .*bare-action.*pkg and .*node_modules.olm-catalog/m);
  // `npm install olm-catalog` in the workspace (here: a link to this repository's package).
  mkdirSync(join(workspace, 'node_modules'));
  symlinkSync(join(REPO, 'pkg'), join(workspace, 'node_modules', 'olm-catalog'), 'dir');
  try {
    const installed = runAction({ paths: 'catalog' }, { entry });
    assert.equal(installed.status, 1, installed.stdout + installed.stderr);
    assert.deepEqual(installed.outputs, { errors: '3', warnings: '0', 'new-findings': '1' });
  } finally {
    rmSync(join(workspace, 'node_modules'), { recursive: true });
  }
});

test('bad inputs fail the step with an error workflow command, not a crash', () => {
  const cases = [
    [{ paths: 'catalog', 'fail-on': 'sometimes' }, /fail-on.*sometimes is not one of error, warning, note, never/],
    [{ paths: '' }, /input `paths`: give at least one/],
    [{ paths: 'nowhere' }, /nowhere: no such file or directory/],
    [{ paths: '../outside' }, /outside the workspace/],
    [{ paths: 'catalog', baseline: '0123456789abcdef0123456789abcdef01234567' }, /baseline 0123456789abcdef.*no such commit/],
  ];
  for (const [inputs, message] of cases) {
    const run = runAction(inputs);
    assert.equal(run.status, 1, `${JSON.stringify(inputs)}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^::error::/m);
    assert.match(run.stdout, message);
    assert.equal(run.stderr, '');
  }
});

test('action.yml declares the inputs and outputs the entry point reads and writes, and runs it on node20', () => {
  const yml = readFileSync(join(REPO, 'action.yml'), 'utf8');
  assert.match(yml, /^runs:\n {2}using: node20\n {2}main: action\/index\.mjs$/m);
  const section = (name) => yml.slice(yml.indexOf(`\n${name}:\n`)).split(/\n(?=\S)/)[1];
  const keys = (name) => [...section(name).matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
  assert.deepEqual(keys('inputs'), ['paths', 'baseline', 'fail-on', 'sarif']);
  assert.deepEqual(keys('outputs'), ['errors', 'warnings', 'new-findings']);
});
