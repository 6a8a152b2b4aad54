#!/usr/bin/env node
// The Node command line: the same subcommands and output formats as the native `olm-catalog`,
// plus `validate --format sarif` for GitHub code scanning. Exit codes: 0 ok, 1 invalid catalog or
// stranded version, 2 usage or I/O error.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { validate, loadCatalog, readCatalog, resolve, resolveText } from '../node.js';

const USAGE = `usage:
  olm-catalog validate PATH... [--format text|json|sarif] [--no-lints]
  olm-catalog graph PATH --package P [--channel C] [--format json|mermaid|dot] [--minimum-edge B] [--v0-semantics]
  olm-catalog path PATH --package P --channel C --from BUNDLE_OR_VERSION [--semantics v0|v1] [--format text|json]
  olm-catalog resolve PROBLEM.json [--format text|json]`;

class UsageError extends Error {}

function parseArgs(argv, flags, switches = []) {
  const opts = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (switches.includes(name)) { opts[name] = true; continue; }
      if (!flags.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      opts[name] = value;
    } else {
      positional.push(a);
    }
  }
  return { opts, positional };
}

const loc = (d) => (d.line === 0 ? d.file : `${d.file}:${d.line}:${d.column}`);

function sarif(diagnostics) {
  const rules = [...new Set(diagnostics.map((d) => d.code))].sort().map((id) => ({
    id,
    shortDescription: { text: id.replaceAll('-', ' ') },
    helpUri: 'https://github.com/olm-catalog/olm-catalog/blob/main/docs/diagnostics.md',
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'olm-catalog', informationUri: 'https://www.npmjs.com/package/olm-catalog', rules } },
      results: diagnostics.map((d) => ({
        ruleId: d.code,
        level: d.severity === 'error' ? 'error' : 'warning',
        message: { text: d.message },
        locations: [{
          physicalLocation: {
            artifactLocation: { uri: d.file },
            ...(d.line > 0 ? { region: { startLine: d.line, startColumn: d.column } } : {}),
          },
          ...(d.pointer ? { logicalLocations: [{ fullyQualifiedName: d.pointer }] } : {}),
        }],
        ...(d.related?.length ? {
          relatedLocations: d.related.map((r, i) => ({
            id: i,
            message: { text: r.message },
            physicalLocation: { artifactLocation: { uri: r.file }, ...(r.line > 0 ? { region: { startLine: r.line, startColumn: r.column } } : {}) },
          })),
        } : {}),
      })),
    }],
  };
}

function cmdValidate(argv, out) {
  const { opts, positional } = parseArgs(argv, ['format'], ['no-lints']);
  const format = opts.format ?? 'text';
  if (!['text', 'json', 'opm', 'sarif'].includes(format)) throw new UsageError(`invalid --format ${format}`);
  if (positional.length === 0) throw new UsageError('validate needs at least one PATH');
  let valid = true;
  const diagnostics = [];
  for (const p of positional) {
    const isDir = statSync(p).isDirectory();
    const report = validate(readCatalog(p), { lints: !opts['no-lints'] });
    valid &&= report.valid;
    const prefix = (f) => (isDir ? `${p.replace(/\/+$/, '')}/${f}` : p);
    for (const d of report.diagnostics) {
      d.file = prefix(d.file);
      for (const r of d.related ?? []) r.file = prefix(r.file);
      diagnostics.push(d);
    }
  }
  if (format === 'json') out.push(JSON.stringify({ diagnostics, valid }, null, 2));
  else if (format === 'sarif') out.push(JSON.stringify(sarif(diagnostics), null, 2));
  else if (format === 'opm') throw new UsageError('--format opm is only available in the native CLI');
  else {
    for (const d of diagnostics) {
      let line = `${loc(d)}: ${d.severity}[${d.code}]: ${d.message}`;
      for (const r of d.related ?? []) line += `\n  ${loc(r)}: note: ${r.message}`;
      out.push(line);
    }
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.length - errors;
    out.push(`${valid ? 'valid' : 'invalid'}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  }
  return valid ? 0 : 1;
}

function cmdGraph(argv, out) {
  const { opts, positional } = parseArgs(argv, ['package', 'channel', 'format', 'minimum-edge'], ['v0-semantics']);
  if (positional.length !== 1 || !opts.package) throw new UsageError('graph needs PATH and --package');
  const format = opts.format ?? 'json';
  const catalog = loadCatalog(readCatalog(positional[0]));
  try {
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
  const catalog = loadCatalog(readCatalog(positional[0]));
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
    if (up.steps.length === 0 && !up.stranded) out.push(`${up.from} is the head of channel ${opts.channel}`);
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
  // Catalogs given as `path` (an FBC directory relative to the problem file) are loaded.
  const loaded = [];
  problem.catalogs = (problem.catalogs ?? []).map((c) => {
    if (typeof c?.path !== 'string') return c;
    const catalog = loadCatalog(readCatalog(resolvePath(dirname(file), c.path)));
    loaded.push(catalog);
    const { path: _path, ...rest } = c;
    return { ...rest, catalog };
  });
  try {
    if ((opts.format ?? 'text') === 'json') {
      const r = resolve(problem);
      out.push(JSON.stringify(r, null, 2));
      return r.errorType === null ? 0 : 1;
    }
    const text = resolveText(problem);
    out.push(text.replace(/\n$/, ''));
    return text.startsWith('error: ') ? 1 : 0;
  } finally {
    for (const c of loaded) c.free();
  }
}

function main(argv) {
  const [cmd, ...rest] = argv;
  const out = [];
  let code;
  try {
    if (cmd === 'validate') code = cmdValidate(rest, out);
    else if (cmd === 'graph') code = cmdGraph(rest, out);
    else if (cmd === 'path') code = cmdPath(rest, out);
    else if (cmd === 'resolve') code = cmdResolve(rest, out);
    else if (cmd === '--help' || cmd === '-h' || cmd === 'help') { process.stdout.write(`${USAGE}\n`); return 0; }
    else throw new UsageError(cmd ? `unknown command ${cmd}` : 'a command is required');
  } catch (e) {
    if (e instanceof UsageError) process.stderr.write(`olm-catalog: ${e.message}\n${USAGE}\n`);
    else process.stderr.write(`olm-catalog: ${e.message}\n`);
    return 2;
  }
  if (out.length) process.stdout.write(`${out.join('\n')}\n`);
  return code;
}

process.exitCode = main(process.argv.slice(2));
