// The part of the façade shared by Node and browsers: wraps the raw wasm-bindgen exports so that
// errors are `Error`s with `name` and `code`, catalog handles are plain classes, and an internal
// panic (a bug) resets the module instead of leaving it unusable.

/** @param {() => any} getRaw the current raw module @param {() => void} reset */
export function makeApi(getRaw, reset) {
  let generation = 0;

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

  class Catalog {
    #handle;
    #generation;
    constructor(files) {
      this.#handle = call((raw) => raw.loadCatalog(files));
      this.#generation = generation;
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
    packages() { return this.#use((h) => h.packages()); }
    channelGraph(pkg, channel) { return this.#use((h) => h.channelGraph(pkg, channel)); }
    upgradePath(options) { return this.#use((h) => h.upgradePath(options)); }
    toMermaid(options) { return this.#use((h) => h.toMermaid(options)); }
    toDot(pkg, channel) { return this.#use((h) => h.toDot(pkg, channel)); }
    /** Release the WebAssembly memory now (otherwise a FinalizationRegistry does it later). */
    free() {
      if (this.#handle !== undefined && this.#generation === generation) this.#handle.free();
      this.#handle = undefined;
    }
  }

  return {
    validate: (files, options) => call((raw) => raw.validate(files, options)),
    loadCatalog: (files) => new Catalog(files),
    packages: (catalog) => catalog.packages(),
    channelGraph: (catalog, pkg, channel) => catalog.channelGraph(pkg, channel),
    upgradePath: (catalog, options) => catalog.upgradePath(options),
    toMermaid: (catalog, options) => catalog.toMermaid(options),
    toDot: (catalog, pkg, channel) => catalog.toDot(pkg, channel),
    Catalog,
    __panicForTesting: () => call((raw) => raw.__panicForTesting()),
    __parseOnly: (files) => call((raw) => raw.__parseOnly(files)),
  };
}
