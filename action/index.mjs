// The GitHub Action of action.yml: validates the catalogs of `paths` with the npm package's Node
// CLI (pkg/bin/olm-catalog.js, WebAssembly: nothing is downloaded at run time), compares them with
// the baseline commit, and writes what the runner reads: annotations (workflow commands on
// stdout) for the new findings, the job summary (validate's Markdown report and the catalog's
// `diff` with its update-safety table), the outputs and the SARIF file.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActionError, baselineCommit, extractPath, resolveCommit } from './git.mjs';

/** The severities of a new finding that fail the step, by `fail-on`. */
const FAILING = { error: ['error'], warning: ['error', 'warning'], note: ['error', 'warning', 'note'], never: [] };

/** An input as the runner passes it (`INPUT_` and its name upper-cased, spaces as `_`), trimmed. */
function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** The Node CLI: the package beside this action (a release carries pkg/dist), else one installed in the workspace. */
function cliPath(workspace) {
  const packages = [join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg'), join(workspace, 'node_modules', 'olm-catalog')];
  const found = packages.find((p) => existsSync(join(p, 'dist', 'node-full', 'olm_catalog_bg.wasm')));
  if (found === undefined) {
    throw new ActionError(`no built olm-catalog package: looked in ${packages.join(' and ')} (use a release of the action, or npm install olm-catalog first)`);
  }
  return join(found, 'bin', 'olm-catalog.js');
}

/** Run the Node CLI in the workspace; its output (exit codes 0 and 1 are answers, 2 a failure). */
function cli(context, args) {
  const run = spawnSync(process.execPath, [context.cli, ...args], { cwd: context.workspace, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.error) throw run.error;
  if (run.status !== 0 && run.status !== 1) {
    throw new ActionError(`olm-catalog ${args.join(' ')}: ${(run.stderr || `exit code ${run.status}`).trim()}`);
  }
  return run.stdout;
}

/** The inputs, checked: catalog paths relative to the workspace, the fail-on level, the SARIF path. */
function readInputs(workspace) {
  const paths = input('paths').split('\n').map((p) => p.trim()).filter((p) => p !== '');
  if (paths.length === 0) throw new ActionError('input `paths`: give at least one catalog directory or file');
  const relPaths = paths.map((p) => {
    const rel = relative(workspace, resolve(workspace, p)) || '.';
    if (rel.startsWith('..') || isAbsolute(rel)) throw new ActionError(`input \`paths\`: ${p} is outside the workspace`);
    if (!existsSync(join(workspace, rel))) throw new ActionError(`input \`paths\`: ${p}: no such file or directory`);
    return rel;
  });
  const failOn = input('fail-on') || 'error';
  if (!(failOn in FAILING)) throw new ActionError(`input \`fail-on\`: ${failOn} is not one of error, warning, note, never`);
  return { paths: relPaths, failOn, sarif: input('sarif'), baseline: input('baseline') };
}

/**
 * One catalog path: its findings, the new ones (those its baseline version did not have), the
 * annotations of the new ones and its part of the summary.
 */
function checkPath(context, path) {
  const all = JSON.parse(cli(context, ['validate', path, '--format', 'json'])).diagnostics;
  let against = [];
  let base;
  if (context.commit !== undefined) {
    const dir = join(context.tmp, 'base');
    base = extractPath(context.workspace, context.commit, path, dir) ? join(dir, path) : undefined;
    // A catalog the base did not have: every finding is new, and the diff is against nothing.
    against = base === undefined ? [] : ['--baseline', base];
  }
  const fresh = base === undefined ? all : JSON.parse(cli(context, ['validate', path, '--format', 'json', ...against])).diagnostics;
  const annotations = cli(context, ['validate', path, '--format', 'github', ...against]);
  let summary = `## \`${path}\`\n\n${cli(context, ['validate', path, '--format', 'markdown', ...against]).trim()}\n`;
  if (base !== undefined) summary += `\n${cli(context, ['diff', base, path, '--format', 'markdown']).trim()}\n`;
  else if (context.commit !== undefined) summary += `\nNew in this change: the base commit has no \`${path}\`.\n`;
  return { all, fresh, annotations, summary };
}

const count = (findings, severity) => findings.filter((d) => d.severity === severity).length;
const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The summary's first lines: what was compared, and the counts. */
function heading(context, results, failing) {
  const all = results.flatMap((r) => r.all);
  const fresh = results.flatMap((r) => r.fresh);
  const against = context.commit === undefined ? 'no baseline: every finding counts as new' : `against \`${context.commit.slice(0, 12)}\``;
  return [
    '# olm-catalog',
    '',
    `**${plural(fresh.length, 'new finding')}** (${against}); the catalogs have ` +
      `${plural(count(all, 'error'), 'error')}, ${plural(count(all, 'warning'), 'warning')}, ${plural(count(all, 'note'), 'note')}.`,
    '',
    failing.length > 0
      ? `❌ ${plural(failing.length, 'new finding')} at or above \`fail-on: ${context.failOn}\`.`
      : `✅ no new finding at or above \`fail-on: ${context.failOn}\`.`,
    '',
  ].join('\n');
}

/** Append `name=value` lines to the file the runner reads the outputs from. */
function setOutputs(outputs) {
  const file = process.env.GITHUB_OUTPUT;
  const text = Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join('');
  if (file) appendFileSync(file, text);
  else process.stdout.write(text);
}

/** Run the action; its exit code. */
function main() {
  const workspace = resolve(process.env.GITHUB_WORKSPACE || process.cwd());
  const tmp = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'olm-catalog-'));
  try {
    const inputs = readInputs(workspace);
    const commitName = baselineCommit(inputs.baseline, process.env.GITHUB_EVENT_PATH);
    const commit = commitName === undefined ? undefined : resolveCommit(workspace, commitName);
    const context = { workspace, tmp, cli: cliPath(workspace), commit, failOn: inputs.failOn };
    const results = inputs.paths.map((p) => checkPath(context, p));
    for (const r of results) process.stdout.write(r.annotations);
    if (inputs.sarif !== '') writeFileSync(resolve(workspace, inputs.sarif), cli(context, ['validate', ...inputs.paths, '--format', 'sarif']));
    const all = results.flatMap((r) => r.all);
    const fresh = results.flatMap((r) => r.fresh);
    const failing = fresh.filter((d) => FAILING[inputs.failOn].includes(d.severity));
    const summary = [heading(context, results, failing), ...results.map((r) => r.summary)].join('\n');
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${summary}\n`);
    setOutputs({ errors: count(all, 'error'), warnings: count(all, 'warning'), 'new-findings': fresh.length });
    if (failing.length === 0) return 0;
    process.stdout.write(`::error::${failing.length} new finding(s) at or above fail-on: ${inputs.failOn}\n`);
    return 1;
  } catch (e) {
    // A bad input or baseline says what is wrong; anything else (a bug) says where it happened.
    const message = e instanceof ActionError ? e.message : `olm-catalog action: ${e.stack ?? e}`;
    process.stdout.write(`::error::${message.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')}\n`);
    return 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = main();
