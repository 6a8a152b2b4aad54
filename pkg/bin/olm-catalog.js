#!/usr/bin/env node
// The Node command line: the same subcommands and output formats as the native `olm-catalog`
// (the CI formats, sarif, github, markdown and junit, come from the same Rust renderers). Exit codes: 0 ok, 1 invalid catalog,
// stranded version or a CSV its OperatorGroup does not support, 2 usage or I/O error.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import {
  validate, diffCatalogsText, formatDiagnostics, loadCatalog, readCatalog, resolve, resolveText, render, expandTemplate, convertToBasicTemplate,
  checkOperatorGroups, checkOperatorGroupsText, packageDeps, packageDepsText, imageTransport, readImageReference,
} from '../node.js';

const USAGE = `usage:
  olm-catalog validate PATH... [--format text|json|opm|sarif|github|markdown|junit] [--no-lints] [--config FILE] [--lint CODE=LEVEL]... [--deny-warnings] [--olm-v1] [--baseline OLD]
  olm-catalog graph PATH --package P [--channel C] [--format json|mermaid|dot] [--minimum-edge B] [--v0-semantics]
  olm-catalog path PATH --package P --channel C --from BUNDLE_OR_VERSION [--semantics v0|v1] [--format text|json]
  olm-catalog resolve PROBLEM.json [--format text|json]
  olm-catalog operatorgroup CHECK.json [--format text|json]
  olm-catalog rbac PATH --package P [--bundle B] [--install-mode OwnNamespace|SingleNamespace|MultiNamespace|AllNamespaces] [--namespace NS] [--operator-group G] [--target-namespaces A,B] [--format text|json|yaml]
  olm-catalog render PATH... [--format json|yaml] [--migrate-level bundle-object-to-csv-metadata] [--image-ref-template T] [-o DIR|--output-dir DIR] [--validate]
  olm-catalog template FILE [--bundles PATH...] [--kind basic|semver|substitutes] [--image-ref-template T] [--format json|yaml|mermaid] [-o DIR] [--validate]
  olm-catalog diff OLD NEW [--format text|json|markdown|sarif|github|junit] [--package P]
  olm-catalog convert-template basic PATH [--format json|yaml]
  olm-catalog deps PATH --package P [--format text|json] [--heads-only]
A PATH may be an image: oci:DIR[:TAG], oci-archive:FILE[:TAG], docker-archive:FILE (- for stdin),
docker://REF or REGISTRY/REPO[:TAG|@DIGEST]; image options (any command):
  [--platform OS/ARCH[/VARIANT]] [--authfile FILE] [--cert-dir DIR] [--tls-verify=false (TLS unchecked, or plain HTTP)] [--no-cache] [--offline] [--verbose]
A template's bundle images missing from --bundles are pulled (--offline: from the cache only).
Colour (any command): [--color auto|always|never] (auto: when the output is a terminal and NO_COLOR is unset)`;

const REPORT_FORMATS = ['sarif', 'github', 'markdown', 'junit'];

class UsageError extends Error {}

// `multi`: options taking every following value up to the next option (clap's `num_args = 1..`),
// repeatable; `repeat`: options taking one value, repeatable (collected in a list); `short`:
// one-letter aliases (`-o DIR`).
function parseArgs(argv, flags, switches = [], { multi = [], repeat = [], short = {} } = {}) {
  const opts = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (/^-[^-]/.test(a) && short[a[1]]) a = `--${short[a[1]]}${a.length > 2 ? `=${a.slice(2).replace(/^=/, '')}` : ''}`;
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (switches.includes(name)) { opts[name] = true; continue; }
      if (!flags.includes(name)) throw new UsageError(`unknown option --${name}`);
      if (multi.includes(name)) {
        const values = [];
        if (inline !== undefined) values.push(inline);
        else while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) values.push(argv[++i]);
        if (values.length === 0) throw new UsageError(`--${name} needs a value`);
        opts[name] = [...(opts[name] ?? []), ...values];
        continue;
      }
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      opts[name] = repeat.includes(name) ? [...(opts[name] ?? []), value] : value;
    } else {
      positional.push(a);
    }
  }
  return { opts, positional };
}

/** The images named on the command line, read before the command runs: argument → `{name, files}`. */
const images = new Map();

/** The options every command's image inputs share, taken out of `argv`. */
function imageOptions(argv) {
  const options = { tlsVerify: true, verbose: false, offline: false, noCache: false };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].startsWith('--') ? argv[i].slice(2).split(/=(.*)/s, 2) : [];
    if (name === 'verbose') options.verbose = true;
    else if (name === 'offline') options.offline = true;
    else if (name === 'no-cache') options.noCache = true;
    else if (['platform', 'authfile', 'tls-verify', 'cert-dir'].includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      if (name === 'tls-verify') {
        if (!['true', 'false'].includes(value)) throw new UsageError(`invalid --tls-verify ${value}`);
        options.tlsVerify = value === 'true';
      } else options[name === 'cert-dir' ? 'certDir' : name] = value;
    } else rest.push(argv[i]);
  }
  return { options, rest };
}

/** The image options of this run (set by `main`). */
let imageOpts = {};

/** Read every image named in `argv` (through readImage, in the module), once each. */
async function readImages(argv, options) {
  for (const arg of argv) {
    if (images.has(arg) || imageTransport(arg) === undefined) continue;
    await readOneImage(arg, options);
  }
}

/** Read the image `arg` into `images`; an error names it. */
async function readOneImage(arg, options) {
  let image;
  try {
    image = await readImageReference(arg, options);
  } catch (e) {
    throw new Error(e.message.startsWith(arg) ? e.message : `${arg}: ${e.message}`);
  }
  for (const f of image.findings) process.stderr.write(`olm-catalog: warning: ${arg}@${image.digest}: ${f}\n`);
  if (options.verbose && image.repository) process.stderr.write(`olm-catalog: ${arg}: read from ${image.repository}\n`);
  if (options.verbose) {
    const platform = image.platform ? `, platform ${image.platform}` : '';
    process.stderr.write(`olm-catalog: ${arg}: image ${image.digest}${platform}\n`);
  }
  images.set(arg, image);
}

/**
 * A catalog `path` of a problem or check file in `base`, as the native CLI reads it: an image's
 * file or folder relative to `base`, a registry reference as it is, else a path relative to `base`.
 */
function problemCatalog(base, p) {
  const relative = (f) => (isAbsolute(f) ? f : join(base, f));
  const t = /^(oci|oci-archive|docker-archive):/.test(p) ? imageTransport(p) : undefined;
  if (t && !(t.transport === 'docker-archive' && t.path === '-')) {
    return `${t.transport}:${relative(t.path)}${t.tag === undefined ? '' : `:${t.tag}`}`;
  }
  if (t || (!existsSync(relative(p)) && imageTransport(p) !== undefined)) return p;
  return relative(p);
}

/** The catalogs a `resolve` problem or `operatorgroup` check file names (none if it cannot be read: the command says why). */
function problemCatalogs(cmd, file) {
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const paths = cmd === 'resolve' ? (Array.isArray(json?.catalogs) ? json.catalogs.map((c) => c?.path) : []) : [json?.path];
  return paths.filter((p) => typeof p === 'string').map((p) => problemCatalog(dirname(file), p));
}

/** A catalog's files: an image's (read by `readImages`), or a path's. */
function readInput(p) {
  return images.get(p)?.files ?? readCatalog(p);
}

/** How findings name a file `f` of the input `p` (`null`: `p` is one file, named as itself). */
function inputPrefix(p) {
  const image = images.get(p);
  if (image) return (f) => (image.name.endsWith(':') ? `${image.name}${f}` : `${image.name}/${f}`);
  return statSync(p).isDirectory() ? (f) => `${p.replace(/\/+$/, '')}/${f}` : null;
}

const loc = (d) => (d.line === 0 ? d.file : `${d.file}:${d.line}:${d.column}`);

// Colour, as the native CLI colours text output: the severities of findings (errors red,
// warnings yellow, notes cyan, bold), their locations and codes bold, the verdict of `validate`
// green or red; the same escape sequences. Decided once per stream by `--color` (auto: a
// terminal, `NO_COLOR` unset or empty, `CLICOLOR` not 0, `TERM` not dumb; `CLICOLOR_FORCE`
// forces it). JSON, catalogs and the CI formats are never coloured.
const colour = { stdout: false, stderr: false };
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';
const SEVERITY_COLOUR = { error: '\x1b[31m', warning: '\x1b[33m', note: '\x1b[36m' };
const paint = (text, style, on) => (on ? `${style}${text}${RESET}` : text);

/** Whether a stream is coloured under `--color when`. */
function colourOn(when, isTTY, env) {
  if (when === 'always') return true;
  if (when === 'never') return false;
  if (env.CLICOLOR_FORCE && env.CLICOLOR_FORCE !== '0') return true;
  if (env.NO_COLOR || env.CLICOLOR === '0' || env.TERM === 'dumb') return false;
  return !!isTTY;
}

/** `--color` taken out of `argv`, deciding the colour of both streams. */
function colourOption(argv) {
  const rest = [];
  let when = 'auto';
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].startsWith('--') ? argv[i].slice(2).split(/=(.*)/s, 2) : [];
    if (name !== 'color') { rest.push(argv[i]); continue; }
    when = inline ?? argv[++i];
    if (!['auto', 'always', 'never'].includes(when)) throw new UsageError(`invalid --color ${when} (auto, always or never)`);
  }
  colour.stdout = colourOn(when, process.stdout.isTTY, process.env);
  colour.stderr = colourOn(when, process.stderr.isTTY, process.env);
  return rest;
}

/** One finding line (`LOC: severity[code]: …`, a related `  LOC: note: …`) with its severity styled when `on`. */
function paintLine(line, on) {
  if (!on) return line;
  const m = line.match(/^(.*?: )(error|warning|note)(\[[^\]]*\])(: .*)$/s) ?? line.match(/^(.*?: )(note)()(: .*)$/s);
  if (!m) return line;
  const [, where, severity, code, rest] = m;
  return `${paint(where, BOLD, true)}${paint(severity, BOLD + SEVERITY_COLOUR[severity], true)}${paint(code, BOLD, true)}${rest}`;
}

/** A finding as the native CLI prints it: `file:line:col: severity[code]: message`, then notes. */
function diagnosticText(d, on = false) {
  let line = paintLine(`${loc(d)}: ${d.severity}[${d.code}]: ${d.message}`, on);
  for (const r of d.related ?? []) line += `\n${paintLine(`  ${loc(r)}: note: ${r.message}`, on)}`;
  return line;
}

/** Print findings on stderr, compiler style. */
function report(diagnostics) {
  for (const d of diagnostics) process.stderr.write(`${diagnosticText(d, colour.stderr)}\n`);
}

/** The first `.olm-catalog.yaml` (or `.yml`) from the catalog's directory upwards. */
function findConfig(catalog) {
  let dir = resolvePath(catalog);
  if (!statSync(dir).isDirectory()) dir = dirname(dir);
  for (;;) {
    for (const name of ['.olm-catalog.yaml', '.olm-catalog.yml']) {
      const f = join(dir, name);
      if (existsSync(f) && statSync(f).isFile()) return f;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function cmdValidate(argv, out) {
  const { opts, positional } = parseArgs(
    argv, ['format', 'config', 'lint', 'baseline'], ['no-lints', 'deny-warnings', 'olm-v1'], { repeat: ['lint'] },
  );
  const format = opts.format ?? 'text';
  if (!['text', 'json', 'opm', ...REPORT_FORMATS].includes(format)) throw new UsageError(`invalid --format ${format}`);
  if (positional.length === 0) throw new UsageError('validate needs at least one PATH');
  let valid = true;
  let passed = true;
  const diagnostics = [];
  const baseline = opts.baseline === undefined ? undefined : readInput(opts.baseline);
  for (const p of positional) {
    const inside = inputPrefix(p);
    const configFile = opts.config ?? (images.has(p) ? undefined : findConfig(p));
    const options = {
      lints: !opts['no-lints'], lint: opts.lint ?? [], olmV1: !!opts['olm-v1'], denyWarnings: !!opts['deny-warnings'], baseline,
      // The CRD upgrade-safety lints, as the native CLI runs them (catalogs that carry CRDs).
      crdSafety: !opts['no-lints'],
    };
    if (configFile !== undefined) options.config = readFileSync(configFile, 'utf8');
    let report;
    try {
      report = validate(readInput(p), options);
    } catch (e) {
      if (e?.code !== 'invalid-config') throw e;
      const message = configFile === undefined ? e.message : e.message.replaceAll(/^config:/gm, `${configFile}:`);
      throw new UsageError(message.startsWith('lint ') ? `--${message}` : message);
    }
    valid &&= report.valid;
    passed &&= report.passed;
    const prefix = (f) => (inside ? inside(f) : p);
    for (const d of report.diagnostics) {
      d.file = prefix(d.file);
      for (const r of d.related ?? []) r.file = prefix(r.file);
      diagnostics.push(d);
    }
  }
  if (format === 'json') out.push(JSON.stringify({ diagnostics, valid }, null, 2));
  else if (REPORT_FORMATS.includes(format)) out.raw = formatDiagnostics(diagnostics, { format, valid });
  else if (format === 'opm') throw new UsageError('--format opm is only available in the native CLI');
  else {
    for (const d of diagnostics) out.push(diagnosticText(d, colour.stdout));
    const count = (s) => diagnostics.filter((d) => d.severity === s).length;
    const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const notes = count('note');
    const verdict = paint(valid ? 'valid' : 'invalid', BOLD + (valid ? '\x1b[32m' : '\x1b[31m'), colour.stdout);
    out.push(`${verdict}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${notes ? `, ${plural(notes, 'note')}` : ''}`);
  }
  return passed ? 0 : 1;
}

/** A catalog's files named from the working directory, as the native CLI names them. */
function namedFiles(p) {
  const inside = inputPrefix(p);
  return readInput(p).map((f) => ({ ...f, path: inside ? inside(f.path) : p }));
}

function cmdDiff(argv, out) {
  const { opts, positional } = parseArgs(argv, ['format', 'package']);
  const format = choice(opts, 'format', ['text', 'json', 'markdown', 'sarif', 'github', 'junit'], 'text');
  if (positional.length !== 2) throw new UsageError('diff needs OLD and NEW');
  const [old, neu] = positional.map(namedFiles);
  const { text, failed } = diffCatalogsText(old, neu, { package: opts.package, format });
  out.raw = text;
  return failed ? 1 : 0;
}

/** A package's cross-package view; 1 when a requirement is unsatisfied or invalid. */
function cmdDeps(argv, out) {
  const { opts, positional } = parseArgs(argv, ['package', 'format'], ['heads-only']);
  if (positional.length !== 1 || !opts.package) throw new UsageError('deps needs PATH and --package');
  const format = opts.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format ${format}`);
  const catalog = loadCatalog(readInput(positional[0]));
  const options = { package: opts.package, headsOnly: opts['heads-only'] === true };
  try {
    if (format === 'json') {
      const deps = packageDeps(catalog, options);
      out.push(JSON.stringify(deps, null, 2));
      return deps.summary.unsatisfied + deps.summary.invalid > 0 ? 1 : 0;
    }
    const { text, failed } = packageDepsText(catalog, options);
    out.raw = text;
    return failed ? 1 : 0;
  } finally {
    catalog.free();
  }
}

function cmdGraph(argv, out) {
  const { opts, positional } = parseArgs(argv, ['package', 'channel', 'format', 'minimum-edge'], ['v0-semantics']);
  if (positional.length !== 1 || !opts.package) throw new UsageError('graph needs PATH and --package');
  const format = opts.format ?? 'json';
  const catalog = loadCatalog(readInput(positional[0]));
  try {
    if (!catalog.packages().some((p) => p.name === opts.package)) {
      throw new Error(`no package ${JSON.stringify(opts.package)} in ${positional[0]}`);
    }
    if (format === 'mermaid') {
      out.push(catalog.toMermaid({ package: opts.package, channel: opts.channel, minimumEdge: opts['minimum-edge'], v0Semantics: !!opts['v0-semantics'] }).replace(/\n$/, ''));
    } else if (format === 'dot') {
      out.push(catalog.toDot(opts.package, opts.channel).replace(/\n$/, ''));
    } else if (format === 'json') {
      out.push(JSON.stringify(catalog.channelGraph(opts.package, opts.channel), null, 2));
    } else {
      throw new UsageError(`invalid --format ${format}`);
    }
  } finally {
    catalog.free();
  }
  return 0;
}

function cmdPath(argv, out) {
  const { opts, positional } = parseArgs(argv, ['package', 'channel', 'from', 'semantics', 'format']);
  if (positional.length !== 1 || !opts.package || !opts.channel || !opts.from) {
    throw new UsageError('path needs PATH, --package, --channel and --from');
  }
  const catalog = loadCatalog(readInput(positional[0]));
  let up;
  try {
    up = catalog.upgradePath({ package: opts.package, channel: opts.channel, from: opts.from, semantics: opts.semantics ?? 'v0' });
  } finally {
    catalog.free();
  }
  if ((opts.format ?? 'text') === 'json') {
    out.push(JSON.stringify(up, null, 2));
  } else {
    const head = up.to ?? '(no head)';
    if (up.note) out.push(up.note);
    if (up.steps.length === 0 && !up.stranded) out.push(`${up.from} is already at the head of channel ${opts.channel}`);
    for (const s of up.steps) out.push(`${s.from} -> ${s.to} (${s.edge})`);
    if (up.stranded) out.push(`stranded: no path from ${up.from} to ${head}: ${up.reason ?? ''}`);
    else if (up.steps.length) out.push(`${up.steps.length} upgrade${up.steps.length === 1 ? '' : 's'} to reach ${head}`);
  }
  return up.stranded ? 1 : 0;
}

function cmdResolve(argv, out) {
  const { opts, positional } = parseArgs(argv, ['format']);
  if (positional.length !== 1) throw new UsageError('resolve needs one PROBLEM.json');
  const file = positional[0];
  let problem;
  try {
    problem = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
  // Catalogs given as `path` (an FBC directory or image relative to the problem file, or a registry reference) are loaded.
  const loaded = [];
  problem.catalogs = (problem.catalogs ?? []).map((c) => {
    if (typeof c?.path !== 'string') return c;
    const catalog = loadCatalog(readInput(problemCatalog(dirname(file), c.path)));
    loaded.push(catalog);
    const { path: _path, ...rest } = c;
    return { ...rest, catalog };
  });
  try {
    if ((opts.format ?? 'text') === 'json') {
      const r = resolve(problem);
      // The native CLI's JSON: each pick with its requirement text, asked for here, after `installed`.
      const picks = r.picks.map((p, i) => {
        const { bundle, name, installed, ...rest } = p;
        return { bundle, name, installed, requiredBy: r.requiredBy(i), ...rest };
      });
      out.push(JSON.stringify({ ...r, picks }, null, 2));
      return r.errorType === null ? 0 : 1;
    }
    const text = resolveText(problem);
    out.push(text.replace(/\n$/, ''));
    return text.startsWith('error: ') ? 1 : 0;
  } finally {
    for (const c of loaded) c.free();
  }
}

// The fields of a CHECK file the check reads (the native CLI ignores any other, as here).
const CHECK_FIELDS = [
  'package', 'bundle', 'installModes', 'installModesList', 'providedAPIs', 'operatorNamespace', 'targetNamespaces',
  'namespaces', 'operatorGroups', 'instances',
];

function cmdOperatorgroup(argv, out) {
  const { opts, positional } = parseArgs(argv, ['format']);
  const format = choice(opts, 'format', ['text', 'json'], 'text');
  if (positional.length !== 1) throw new UsageError('operatorgroup needs one CHECK.json');
  const file = positional[0];
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(e instanceof SyntaxError ? `${file}: not an operatorgroup check: ${e.message}` : `${file}: ${e.message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${file}: not an operatorgroup check`);
  const check = Object.fromEntries(CHECK_FIELDS.filter((k) => k in json).map((k) => [k, json[k]]));
  // A catalog `path` (a directory or an image) is relative to the check file; a registry reference is as it is.
  let catalog;
  if (json.path !== undefined && json.path !== null) {
    const path = problemCatalog(dirname(file), json.path);
    try {
      catalog = loadCatalog(readInput(path));
    } catch (e) {
      throw new Error(`${file}: ${path}: ${e.message}`);
    }
    check.catalog = catalog;
  }
  try {
    const report = checkOperatorGroups(check);
    if (format === 'json') out.push(JSON.stringify(report, null, 2));
    else out.raw = checkOperatorGroupsText(check);
    return report.membership.outcome.outcome === 'supported' ? 0 : 1;
  } catch (e) {
    if (e?.name === 'OlmCatalogError') throw new Error(`${file}: ${e.message}`);
    throw e;
  } finally {
    catalog?.free();
  }
}

const INSTALL_MODES = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];

/** The bundle `rbac` previews: the one named, or the head of the package's default channel. */
function rbacBundle(catalog, options) {
  if (options.bundle !== undefined) return options.bundle;
  const pkg = catalog.packages().find((p) => p.name === options.package);
  return pkg?.channels.find((c) => c.name === pkg.defaultChannel)?.head;
}

function cmdRbac(argv, out) {
  const { opts, positional } = parseArgs(
    argv, ['package', 'bundle', 'install-mode', 'namespace', 'operator-group', 'target-namespaces', 'format'],
  );
  const format = choice(opts, 'format', ['text', 'json', 'yaml'], 'text');
  const installMode = choice(opts, 'install-mode', INSTALL_MODES);
  if (positional.length !== 1 || !opts.package) throw new UsageError('rbac needs PATH and --package');
  const path = positional[0];
  const options = {
    package: opts.package,
    bundle: opts.bundle,
    installMode,
    namespace: opts.namespace,
    operatorGroup: opts['operator-group'],
    targetNamespaces: opts['target-namespaces']?.split(','),
  };
  const catalog = loadCatalog(readInput(path));
  try {
    let previews;
    try {
      previews = catalog.previewRbac(options);
    } catch (e) {
      if (e?.code === 'unknown-package') throw new Error(`no package ${JSON.stringify(opts.package)} in ${path}`);
      if (e?.code !== 'no-csv') throw e;
      process.stderr.write(`olm-catalog: ${e.message}\n`);
      return 1;
    }
    const name = JSON.stringify(rbacBundle(catalog, options));
    if (previews.length === 0) {
      process.stderr.write(`olm-catalog: the CSV of ${name} supports no install mode: OLM installs it under no OperatorGroup\n`);
      return 1;
    }
    if (format === 'json') out.push(JSON.stringify(previews, null, 2));
    else if (format === 'text') out.raw = catalog.previewRbacText(options, format);
    else {
      try {
        out.raw = catalog.previewRbacText(options, format);
      } catch (e) {
        throw e?.code === 'invalid-input' ? new Error(`--format yaml: ${e.message}`) : e;
      }
    }
    if (!previews[0].permissionsKnown) {
      process.stderr.write(`olm-catalog: the CSV of ${name} comes from olm.csv.metadata, which carries no install strategy: its permissions are unknown\n`);
      return 1;
    }
    return previews.some((p) => p.unsupported !== null) ? 1 : 0;
  } finally {
    catalog.free();
  }
}

/** A path as an input of `render`/`expandTemplate`, findings named as the native CLI names them. */
function namedInput(path) {
  try {
    const image = images.get(path);
    if (image) return { name: image.name.replace(/:$/, ''), files: image.files };
    return { name: path, file: statSync(path).isFile(), files: readCatalog(path) };
  } catch (e) {
    throw new Error(`${path}: ${e.message}`);
  }
}

/** An input's findings named as `render` names them (`path/<file>`, or `path` for a file). */
function named(input, diagnostics) {
  const rename = (f) => {
    if (input.file) return input.name;
    if (!input.name || f.startsWith('/')) return f;
    return input.name.endsWith('/') ? `${input.name}${f}` : `${input.name}/${f}`;
  };
  return diagnostics.map((d) => ({
    ...d,
    file: d.file ? rename(d.file) : d.file,
    related: (d.related ?? []).map((r) => ({ ...r, file: rename(r.file) })),
  }));
}

const FBC_FORMATS = ['json', 'yaml'];

function choice(opts, name, allowed, fallback) {
  const v = opts[name] ?? fallback;
  if (v !== undefined && !allowed.includes(v)) throw new UsageError(`invalid --${name} ${v}`);
  return v;
}

/** The output of `render` and `template`: one stream on stdout, or one file per package under `dir`. */
function emit(result, format, dir, out) {
  if (dir === undefined) {
    out.raw = result.catalog;
    return;
  }
  for (const { package: pkg, content } of result.packages) {
    const folder = join(dir, pkg);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `catalog.${format}`), content);
  }
}

/**
 * `render` of inputs among which are bundle images: each rendered on its own, a bundle image with
 * its reference as its `image` (as `opm render IMAGE` does), the streams joined in order.
 */
function renderEach(paths, options) {
  const results = paths.map((p) => {
    const bundleImage = images.get(p)?.kind === 'bundle';
    return render([namedInput(p)], bundleImage ? { ...options, imageRefTemplate: p } : options);
  });
  return {
    catalog: results.map((r) => r.catalog).join(''),
    diagnostics: results.flatMap((r) => r.diagnostics),
    packages: results.flatMap((r) => r.packages),
    valid: results.every((r) => r.valid),
  };
}

function cmdRender(argv, out) {
  const { opts, positional } = parseArgs(
    argv, ['format', 'migrate-level', 'image-ref-template', 'output-dir'], ['validate'], { short: { o: 'output-dir' } },
  );
  const format = choice(opts, 'format', FBC_FORMATS, 'json');
  const migrateLevel = choice(opts, 'migrate-level', ['bundle-object-to-csv-metadata']);
  if (positional.length === 0) throw new UsageError('render needs at least one PATH');
  const options = { format, migrateLevel, imageRefTemplate: opts['image-ref-template'], validate: !!opts.validate };
  const result = positional.some((p) => images.get(p)?.kind === 'bundle')
    ? renderEach(positional, options)
    : render(positional.map(namedInput), options);
  report(result.diagnostics);
  emit(result, format, opts['output-dir'], out);
  return result.valid ? 0 : 1;
}

/**
 * A `--bundles` input: a bundle image is rendered first with its reference as its image (so the
 * template finds it by that reference), the rest as they are.
 */
function bundleSource(path) {
  const input = namedInput(path);
  if (images.get(path)?.kind !== 'bundle') return input;
  const rendered = render([input], { imageRefTemplate: path });
  return { name: input.name, files: [{ path: 'catalog.json', content: rendered.catalog }] };
}

/**
 * The template's bundle images that `sources` lack and that name an image, pulled (as opm does;
 * `--offline`: from the cache alone) and added to `sources`; true when one was. One that cannot
 * be read is warned about and stays missing, which the expansion reports where the template
 * names it.
 */
async function pullMissing(missing, sources) {
  let added = false;
  for (const image of missing.filter((m) => imageTransport(m) !== undefined)) {
    try {
      if (!images.has(image)) await readOneImage(image, imageOpts);
      sources.push(bundleSource(image));
      added = true;
    } catch (e) {
      process.stderr.write(`olm-catalog: warning: ${e.message}\n`);
    }
  }
  return added;
}

async function cmdTemplate(argv, out) {
  const { opts, positional } = parseArgs(
    argv, ['bundles', 'kind', 'image-ref-template', 'format', 'output-dir'], ['validate'],
    { multi: ['bundles'], short: { o: 'output-dir' } },
  );
  const format = choice(opts, 'format', [...FBC_FORMATS, 'mermaid'], 'json');
  const kind = choice(opts, 'kind', ['basic', 'semver', 'substitutes']);
  if (positional.length !== 1) throw new UsageError('template needs FILE');
  const file = positional[0];
  const imageRefTemplate = opts['image-ref-template'];
  const sources = (opts.bundles ?? []).map(bundleSource);
  let content;
  try {
    content = new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
  const expand = () => expandTemplate({ path: file, content }, sources, {
    format: format === 'mermaid' ? 'json' : format, kind, imageRefTemplate, validate: !!opts.validate,
  });
  let result = expand();
  if (await pullMissing(result.missingImages, sources)) result = expand();
  // The bundle sources' own findings, with their severity, as the native CLI prints them first.
  const sourceDiagnostics = sources.flatMap((s) => render([s], { imageRefTemplate }).diagnostics);
  // expandTemplate lists the sources' findings last, as warnings.
  const own = result.diagnostics.slice(0, result.diagnostics.length - sourceDiagnostics.length);
  report(sourceDiagnostics);
  report(own);
  if (format === 'mermaid') {
    const catalog = loadCatalog([{ path: 'catalog.json', content: result.catalog }]);
    try {
      out.raw = catalog.toMermaid({});
    } finally {
      catalog.free();
    }
  } else {
    emit(result, format, opts['output-dir'], out);
  }
  return own.some((d) => d.severity === 'error') ? 1 : 0;
}

function cmdConvertTemplate(argv, out) {
  const { opts, positional } = parseArgs(argv, ['format']);
  const format = choice(opts, 'format', FBC_FORMATS, 'json');
  if (positional.length !== 2) throw new UsageError('convert-template needs basic and PATH');
  if (positional[0] !== 'basic') throw new UsageError(`invalid template kind ${positional[0]} (only basic)`);
  const path = positional[1];
  const input = namedInput(path);
  try {
    out.raw = convertToBasicTemplate(input.files, { format });
  } catch (e) {
    if (e?.code !== 'invalid-catalog') throw e;
    report(named(input, e.diagnostics ?? []));
    return 1;
  }
  return 0;
}

async function main(argv) {
  const out = [];
  let code;
  try {
    const { options, rest: args } = imageOptions(colourOption(argv));
    const [cmd, ...rest] = args;
    imageOpts = options;
    await readImages(rest, options);
    // The images a problem or check file names as its catalogs.
    if (cmd === 'resolve' || cmd === 'operatorgroup') {
      const [file] = parseArgs(rest, ['format']).positional;
      if (file !== undefined) await readImages(problemCatalogs(cmd, file), options);
    }
    if (cmd === 'validate') code = cmdValidate(rest, out);
    else if (cmd === 'graph') code = cmdGraph(rest, out);
    else if (cmd === 'diff') code = cmdDiff(rest, out);
    else if (cmd === 'path') code = cmdPath(rest, out);
    else if (cmd === 'resolve') code = cmdResolve(rest, out);
    else if (cmd === 'operatorgroup') code = cmdOperatorgroup(rest, out);
    else if (cmd === 'rbac') code = cmdRbac(rest, out);
    else if (cmd === 'render') code = cmdRender(rest, out);
    else if (cmd === 'template') code = await cmdTemplate(rest, out);
    else if (cmd === 'convert-template') code = cmdConvertTemplate(rest, out);
    else if (cmd === 'deps') code = cmdDeps(rest, out);
    else if (cmd === '--help' || cmd === '-h' || cmd === 'help') { process.stdout.write(`${USAGE}\n`); return 0; }
    else throw new UsageError(cmd ? `unknown command ${cmd}` : 'a command is required');
  } catch (e) {
    if (e instanceof UsageError) process.stderr.write(`olm-catalog: ${e.message}\n${USAGE}\n`);
    else process.stderr.write(`olm-catalog: ${e.message}\n`);
    return 2;
  }
  if (out.raw !== undefined) process.stdout.write(out.raw);
  else if (out.length) process.stdout.write(`${out.join('\n')}\n`);
  return code;
}

// A closed pipe (`| head`) is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});
process.exitCode = await main(process.argv.slice(2));
