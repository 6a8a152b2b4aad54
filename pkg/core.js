// The part of the façade shared by Node and browsers: wraps the raw wasm-bindgen exports so that
// errors are `Error`s with `name` and `code`, catalog handles are plain classes, and an internal
// panic (a bug) resets the module instead of leaving it unusable.

/** Whether the module already loaded has the test-only panic hook (never before `init()`). */
function hasPanicHook(getRaw) {
  try {
    return typeof getRaw().__panicForTesting === 'function';
  } catch {
    return false;
  }
}

/**
 * What a picture draws (core handle `h`, picture module `raw`): the options checked by the
 * picture module, then the channel's graph and the path from the core: `[graph, path, args]`,
 * the arguments of the picture module's `drawPicture` and `drawSvg`. A channel OLM v0 cannot
 * order strands the start: the picture draws it, with the reason.
 */
export function pictureInput(h, raw, options, what) {
  const o = raw.pictureOptions(options, what);
  const graph = h.channelGraph(o.package, o.channel || h.pictureChannel(o.package));
  let path = null;
  if (o.from) {
    try {
      path = h.upgradePath({ package: o.package, channel: graph.channel, from: o.from, semantics: o.v1 ? 'v1' : 'v0' });
    } catch (e) {
      if (e?.code !== 'no-path' || e.stranded === undefined) throw e;
      path = { from: e.stranded, to: graph.head ?? null, steps: [], stranded: true, reason: e.message };
    }
  }
  return [graph, path, o];
}

/**
 * @param {() => any} getRaw the current raw module
 * @param {() => void} reset
 * @param {(() => any) | null} getResolverRaw the resolver's module (`resolve`, `resolveText`,
 *   `resolveV1`), when it is a separate one (browsers: the core module leaves it out); `null` when
 *   `getRaw`'s module has everything (Node)
 * @param {(() => any) | null} getToolsRaw the tools' module (render, templates, diffs, edits,
 *   OperatorGroup checks, RBAC previews, Mermaid and DOT, packageDeps, openCatalog,
 *   formatDiagnostics), when it is a separate one (browsers); `null` in Node
 * @param {(() => any) | null} getPictureRaw the picture module (`pictureOptions`, `drawPicture`, `drawSvg`, `layoutGraph`: the pictures of the channel graphs and paths the core
 *   computes), when it is a separate one (browsers); `null` when `getRaw`'s module has it (Node)
 */
export function makeApi(getRaw, reset, getResolverRaw = null, getToolsRaw = null, getPictureRaw = null) {
  let generation = 0;
  const encoder = new TextEncoder();

  function call(fn) {
    try {
      return fn(getRaw());
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        // A panic traps the instance; start a fresh one for later calls.
        generation += 1;
        reset();
        const err = new Error(`olm-catalog internal error (please report it): ${e.message}`);
        err.name = 'OlmCatalogError';
        err.code = 'internal-panic';
        throw err;
      }
      throw e;
    }
  }

  // A call into the resolver's or the tools' module (the core one in Node, which has everything).
  const callResolver = (fn) => call((coreRaw) => fn(getResolverRaw ? getResolverRaw() : coreRaw));
  const callTools = (fn) => call((coreRaw) => fn(getToolsRaw ? getToolsRaw() : coreRaw));
  // The picture module holds no catalog: the core computes the graph and path, the picture module draws them.
  const callPicture = (fn) => call((coreRaw) => fn(getPictureRaw ? getPictureRaw() : coreRaw));
  const separate = getResolverRaw !== null || getToolsRaw !== null;

  class Catalog {
    #handle;
    #generation;
    #files;
    /** The catalog loaded again in another module (raw module → its handle there). */
    #mirrors = new Map();
    constructor(files) {
      this.#handle = call((raw) => raw.loadCatalog(files));
      this.#generation = generation;
      // With separate on-demand modules the catalog is loaded in each again when first needed there.
      if (separate) this.#files = files;
    }
    #use(fn) {
      if (this.#handle === undefined) {
        const err = new Error('this catalog was freed');
        err.name = 'OlmCatalogError';
        err.code = 'freed';
        throw err;
      }
      if (this.#generation !== generation) {
        const err = new Error('this catalog was loaded before an internal error reset the module; load it again');
        err.name = 'OlmCatalogError';
        err.code = 'stale-handle';
        throw err;
      }
      return call(() => fn(this.#handle));
    }
    report() { return this.#use((h) => h.report()); }
    packages() { return this.#use((h) => h.packages()).map(withIconUrl); }
    channelGraph(pkg, channel) { return this.#use((h) => h.channelGraph(pkg, channel)); }
    upgradePath(options) { return this.#use((h) => h.upgradePath(options)); }
    graphPicture(options) { return this.#picture((h, raw) => raw.drawPicture(...pictureInput(h, raw, options, 'graphPicture'))); }
    renderGraphSvg(options) { return this.#picture((h, raw) => raw.drawSvg(...pictureInput(h, raw, options, 'renderGraphSvg'), options)); }
    packageDeps(options) { return this.#tools((h) => h.packageDeps(options)); }
    packageDepsText(options) { return this.#tools((h) => h.packageDepsText(options)); }
    toMermaid(options) { return this.#tools((h) => h.toMermaid(options)); }
    toDot(pkg, channel) { return this.#tools((h) => h.toDot(pkg, channel)); }
    checkOperatorGroups(check) { return this.#tools((h) => h.checkOperatorGroups(check)); }
    checkOperatorGroupsText(check) { return this.#tools((h) => h.checkOperatorGroupsText(check)); }
    previewRbac(options) { return this.#tools((h) => h.previewRbac(options)); }
    previewRbacText(options, format) { return this.#tools((h) => h.previewRbacText(options, format)); }
    /** @internal benchmark hook: every channel's graph and every entry's paths; nodes + paths computed */
    __graphsAndPaths() { return this.#use((h) => h.__graphsAndPaths()); }
    /** `fn(handle, pictureRaw)`: this catalog's graph and path, drawn in the picture module. */
    #picture(fn) { return callPicture((raw) => this.#use((h) => fn(h, raw))); }
    /** `fn` on this catalog's handle in the tools' module. */
    #tools(fn) { return callTools((raw) => fn(Catalog._raw(this, raw))); }
    /**
     * @internal the raw handle in module `raw` (the resolver's or the tools'), for a call there
     * (with another catalog, a resolver): the catalog is loaded there on first use, then kept.
     */
    static _raw(c, raw) {
      return c.#use((h) => {
        if (!separate) return h;
        let mirror = c.#mirrors.get(raw);
        if (mirror === undefined) {
          mirror = raw.loadCatalog(c.#files);
          c.#mirrors.set(raw, mirror);
        }
        return mirror;
      });
    }
    /** Release the WebAssembly memory now (otherwise a FinalizationRegistry does it later). */
    free() {
      if (this.#handle !== undefined && this.#generation === generation) this.#handle.free();
      for (const mirror of this.#mirrors.values()) mirror.free();
      this.#handle = undefined;
      this.#mirrors.clear();
      this.#files = undefined;
    }
  }

  // An editing session (`openCatalog`): the catalog stays inside WebAssembly and each change
  // re-validates only what it touches; every report is what `validate` would return.
  class CatalogSession {
    #handle;
    #generation;
    constructor(files, options) {
      // The tools' module's (browsers: after `initTools()`); the core module leaves it out.
      this.#handle = callTools((raw) => raw.openCatalog(files, options));
      this.#generation = generation;
    }
    #use(fn) {
      if (this.#handle === undefined) {
        const err = new Error('this catalog session was freed');
        err.name = 'OlmCatalogError';
        err.code = 'freed';
        throw err;
      }
      if (this.#generation !== generation) {
        const err = new Error('this catalog session was opened before an internal error reset the module; open it again');
        err.name = 'OlmCatalogError';
        err.code = 'stale-handle';
        throw err;
      }
      return call(() => fn(this.#handle));
    }
    report() { return this.#use((h) => h.report()); }
    update(path, content) { return this.#use((h) => h.update(path, content)); }
    remove(path) { return this.#use((h) => h.remove(path)); }
    /** Release the WebAssembly memory now (otherwise a FinalizationRegistry does it later). */
    free() {
      if (this.#handle !== undefined && this.#generation === generation) this.#handle.free();
      this.#handle = undefined;
    }
  }

  // A problem split into the loaded catalogs to attach and the rest, written as JSON text and
  // passed as its UTF-8 bytes (`TextEncoder` encodes them in one call; a string argument would
  // be copied into the module a character at a time).
  function prepare(problem) {
    if (problem === null || typeof problem !== 'object' || Array.isArray(problem)) {
      const err = new Error('resolve expects a problem object');
      err.name = 'OlmCatalogError';
      err.code = 'invalid-input';
      throw err;
    }
    const inline = [];
    const attach = [];
    for (const c of problem.catalogs ?? []) {
      if (c && c.catalog instanceof Catalog) attach.push({ catalog: c.catalog, name: c.name, namespace: c.namespace, priority: c.priority ?? 0 });
      else inline.push(c);
    }
    return { attach, bytes: encoder.encode(problemText({ ...problem, catalogs: inline })) };
  }

  // Run `fn(resolver, problemBytes)` on a raw Resolver with a prepared problem's catalogs attached.
  function withResolver({ attach, bytes }, fn) {
    return callResolver((raw) => {
      const resolver = new raw.Resolver();
      try {
        for (const c of attach) resolver.attach(Catalog._raw(c.catalog, raw), c.name, c.namespace, c.priority);
        return fn(resolver, bytes);
      } finally {
        resolver.free();
      }
    });
  }

  // `resolve`: the outcome's answer crosses as JSON text. Its picks (why each bundle was picked)
  // and their requirement texts (OLM's constraint messages, which list the candidates) are
  // worked out when first read, by resolving the same problem again (nothing is kept in the
  // module meanwhile): most callers read only `install`, and the picks were a tenth of a call.
  // The picks are a property filled on first read; the texts come from a `requiredBy(pick)`
  // method.
  function resolveOutcome(problem) {
    const prepared = prepare(problem);
    const [answer, text, lengths] = withResolver(prepared, (r, t) => r.resolveRows(t));
    const outcome = { install: installs(text, lengths), ...JSON.parse(answer) };
    const picksField = (value) => ({ value, enumerable: true, writable: true, configurable: true });
    // A failed resolution has no picks: nothing to resolve again for.
    if (outcome.errorType !== null) {
      Object.defineProperty(outcome, 'picks', picksField([]));
    } else {
      Object.defineProperty(outcome, 'picks', {
        enumerable: true,
        configurable: true,
        get() {
          const picks = JSON.parse(withResolver(prepared, (r, t) => r.picksJson(t)));
          Object.defineProperty(outcome, 'picks', picksField(picks));
          return picks;
        },
        set(value) {
          Object.defineProperty(outcome, 'picks', picksField(value));
        },
      });
    }
    let texts = null;
    Object.defineProperty(outcome, 'requiredBy', {
      value(pick) {
        const i = typeof pick === 'number' ? pick : outcome.picks.indexOf(pick);
        texts ??= outcome.errorType !== null ? [] : withResolver(prepared, (r, t) => JSON.parse(r.requiredByJson(t)));
        if (!Number.isInteger(i) || i < 0 || i >= texts.length) {
          throw invalid('requiredBy expects one of this outcome\'s picks, or its index');
        }
        return texts[i];
      },
    });
    return outcome;
  }

  // The installs cross as one text of all their fields and each field's length (an
  // `Int32Array`, -1: null), in the order of crates/resolve's `Install` (crates/wasm's `Rows`):
  // a string and a typed array to cut, not JSON of many short strings to parse.
  function installs(text, lengths) {
    let at = 0;
    let k = 0;
    const next = () => {
      const n = lengths[k++];
      if (n < 0) return null;
      at += n;
      return text.slice(at - n, at);
    };
    const out = new Array(lengths.length >> 3);
    for (let r = 0; r < out.length; r++) {
      out[r] = { name: next(), package: next(), version: next(), channel: next(), catalog: next(), catalogNamespace: next(), replaces: next(), startingCSV: next() };
    }
    return out;
  }

  /** A package summary with its icon (`{mediaType, data}` from the module) as a `data:` URL. */
  function withIconUrl(p) {
    if (!p.icon) return p;
    // The bytes come as an array of numbers (the module's JSON-compatible objects).
    const data = p.icon.data;
    let text = '';
    for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode.apply(null, Array.prototype.slice.call(data, i, i + 0x8000));
    return { ...p, icon: `data:${p.icon.mediaType};base64,${btoa(text)}` };
  }

  /**
   * `validate`'s options need the tools' module: they name a lint configuration (a `config`, or
   * `lint` settings), ask for OLM v1's lints (`olmV1`, which only that module holds) or a
   * `baseline` to compare with.
   */
  function needsTools(options) {
    if (options === null || typeof options !== 'object') return false;
    const given = (v) => v !== undefined && v !== null;
    return given(options.config) || given(options.baseline) || options.crdSafety === true || options.olmV1 === true
      || (given(options.lint) && !(Array.isArray(options.lint) && options.lint.length === 0));
  }

  /** A resolution problem (loaded catalogs taken out) as JSON text for the module. */
  function problemText(problem) {
    try {
      return JSON.stringify(problem);
    } catch (e) {
      throw invalid(`resolution problem: ${e.message}`);
    }
  }

  function invalid(message) {
    const err = new Error(message);
    err.name = 'OlmCatalogError';
    err.code = 'invalid-input';
    return err;
  }

  // A check whose bundle is in a loaded catalog (`check.catalog`) runs on that catalog; an inline
  // one in the module.
  function withCheck(check, onCatalog, inline) {
    if (check === null || typeof check !== 'object' || Array.isArray(check)) {
      throw invalid('checkOperatorGroups expects a check object');
    }
    const { catalog, ...rest } = check;
    if (catalog === undefined) return callTools((raw) => inline(raw, rest));
    if (!(catalog instanceof Catalog)) throw invalid('check.catalog must be a Catalog from loadCatalog');
    return onCatalog(catalog, rest);
  }

  function catalogArg(catalog, fn) {
    if (!(catalog instanceof Catalog)) throw invalid(`${fn} expects a Catalog from loadCatalog as its first argument`);
    return catalog;
  }

  // `diffCatalogs` (tools' module): both file lists go to the module as they are; a loaded catalog
  // on either side makes the other one a (temporary) Catalog too.
  function diffWith(old, neu, options, text) {
    if (Array.isArray(old) && Array.isArray(neu)) {
      return callTools((raw) => (text ? raw.diffFilesText(old, neu, options) : raw.diffFiles(old, neu, options)));
    }
    const temporary = [];
    const asCatalog = (c, which) => {
      if (c instanceof Catalog) return c;
      if (!Array.isArray(c)) throw invalid(`diffCatalogs: ${which} must be a file list or a Catalog from loadCatalog`);
      const loaded = new Catalog(c);
      temporary.push(loaded);
      return loaded;
    };
    try {
      const o = asCatalog(old, 'old');
      const n = asCatalog(neu, 'new');
      return callTools((raw) => {
        const [oh, nh] = [Catalog._raw(o, raw), Catalog._raw(n, raw)];
        return text ? oh.diffText(nh, options) : oh.diff(nh, options);
      });
    } finally {
      for (const c of temporary) c.free();
    }
  }

  // `graphPicture` / `renderGraphSvg` take a loaded Catalog, or a file list loaded for the call.
  function withCatalog(catalogOrFiles, fn, name) {
    if (catalogOrFiles instanceof Catalog) return fn(catalogOrFiles);
    if (!Array.isArray(catalogOrFiles)) throw invalid(`${name} expects a Catalog from loadCatalog or a file list as its first argument`);
    const c = new Catalog(catalogOrFiles);
    try {
      return fn(c);
    } finally {
      c.free();
    }
  }

  return {
    graphPicture: (catalog, options) => withCatalog(catalog, (c) => c.graphPicture(options), 'graphPicture'),
    renderGraphSvg: (catalog, options) => withCatalog(catalog, (c) => c.renderGraphSvg(options), 'renderGraphSvg'),
    layoutGraph: (input) => callPicture((raw) => raw.layoutGraph(input)),
    // A lint configuration (`config`, `lint`) and a `baseline` are read in the tools' module
    // (browsers: the core module leaves their readers out).
    validate: (files, options) => (needsTools(options) ? callTools : call)((raw) => raw.validate(files, options)),
    diffCatalogs: (old, neu, options) => diffWith(old, neu, options, false),
    diffCatalogsText: (old, neu, options) => diffWith(old, neu, options, true),
    // Catalog edits (tools' module): plan an operation, apply edits to a file list.
    planEdit: (files, operation, options) => callTools((raw) => (options?.bundles
      ? raw.planEditWith(files, operation, options.bundles)
      : raw.planEdit(files, operation))),
    applyEdits: (files, edits) => callTools((raw) => raw.applyEdits(files, edits)),
    formatDiagnostics: (diagnostics, options) => callTools((raw) => raw.formatDiagnostics(diagnostics, options)),
    crdSafety: (files, options) => callTools((raw) => raw.crdSafety(files, options)),
    // The problem in and the outcome out as JSON text, written and parsed by the engine: faster
    // than reading or building the objects one property at a time across the boundary.
    resolve: resolveOutcome,
    resolveText: (problem) => withResolver(prepare(problem), (r, bytes) => r.resolveText(bytes)),
    resolveV1: (problem) => callResolver((raw) => raw.resolveV1(problem)),
    render: (files, options) => callTools((raw) => raw.render(files, options)),
    expandTemplate: (template, bundleSources, options) => callTools((raw) => raw.expandTemplate(template, bundleSources, options)),
    convertToBasicTemplate: (files, options) => callTools((raw) => raw.convertToBasicTemplate(files, options)),
    readImage: (image, options) => callTools((raw) => raw.readImage(image, options)),
    loadCatalog: (files) => new Catalog(files),
    openCatalog: (files, options) => new CatalogSession(files, options),
    packages: (catalog) => catalog.packages(),
    channelGraph: (catalog, pkg, channel) => catalog.channelGraph(pkg, channel),
    upgradePath: (catalog, options) => catalog.upgradePath(options),
    packageDeps: (catalog, options) => catalogArg(catalog, 'packageDeps').packageDeps(options),
    packageDepsText: (catalog, options) => catalogArg(catalog, 'packageDepsText').packageDepsText(options),
    toMermaid: (catalog, options) => catalog.toMermaid(options),
    toDot: (catalog, pkg, channel) => catalog.toDot(pkg, channel),
    checkOperatorGroups: (check) => withCheck(check, (c, rest) => c.checkOperatorGroups(rest), (raw, p) => raw.checkOperatorGroups(p)),
    checkOperatorGroupsText: (check) => withCheck(check, (c, rest) => c.checkOperatorGroupsText(rest), (raw, p) => raw.checkOperatorGroupsText(p)),
    previewRbac: (catalog, options) => catalogArg(catalog, 'previewRbac').previewRbac(options),
    previewRbacText: (catalog, options, format) => catalogArg(catalog, 'previewRbacText').previewRbacText(options, format),
    Catalog,
    CatalogSession,
    // Only in the Node tests' build (the `test-hooks` feature); `undefined` in published builds.
    __panicForTesting: hasPanicHook(getRaw) ? () => call((raw) => raw.__panicForTesting()) : undefined,
    __parseOnly: (files) => call((raw) => raw.__parseOnly(files)),
    // Benchmark baseline of validate: the trees kept, every olm.bundle.object payload decoded into one.
    __parseAndDecode: (files) => call((raw) => raw.__parseAndDecode(files)),
    // Benchmark hook: the resolution alone, its outcome left in the module (the number of installs).
    __resolveCount: (problem) => withResolver(prepare(problem), (r, bytes) => r.__resolveCount(bytes)),
  };
}
