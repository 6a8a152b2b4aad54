// Types of the olm-catalog package (Node and browsers). Checked against real output by the tests
// in tests/node/.

/** A file of a catalog tree: its path relative to the catalog root, and its content. */
export interface CatalogFile {
  path: string;
  content: string | Uint8Array;
}

/** `note`: a lint lowered to a note (by its default level or configuration); never fails a run. */
export type Severity = 'error' | 'warning' | 'note';

export interface Location {
  file: string;
  /** 1-based; 0 when the finding is about a whole file. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  /** JSON pointer of the field inside its blob ("" for the blob itself). */
  pointer: string;
}

export interface Related extends Location {
  message: string;
}

export interface Diagnostic extends Location {
  /** Stable code, e.g. "duplicate-bundle" (see docs/diagnostics.md). */
  code: string;
  severity: Severity;
  message: string;
  related?: Related[];
}

export interface Report {
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface ChannelSummary {
  name: string;
  head: string | null;
  entries: number;
  deprecated: string | null;
  versions: string[];
}

export interface PackageSummary {
  name: string;
  defaultChannel: string | null;
  description: string;
  deprecated: string | null;
  bundles: number;
  /** The package icon as a `data:` URL, for an `<img>` only. */
  icon: string | null;
  channels: ChannelSummary[];
}

export type EdgeKind = 'replaces' | 'skips' | 'skipRange';

export interface GraphNode {
  name: string;
  version: string | null;
  /** A replaces/skips target that is not an entry of the channel. */
  virtual: boolean;
  head: boolean;
  deprecated: string | null;
  skipped: boolean;
  onV0Chain: boolean;
  stranded: boolean;
  /** Every channel listing this bundle; absent in a `PackageGraph` (see its `bundleChannels`). */
  channels?: string[];
}

export interface GraphEdge {
  /** The older bundle. */
  from: string;
  /** The newer bundle. */
  to: string;
  kind: EdgeKind;
}

/**
 * One entry's skipRange kept as a range: it stands for a `skipRange` edge from each node
 * `nodes[byVersion[i]]` for `i` in each `[start, end)` run, except the node named `to` itself.
 */
export interface GraphFan {
  /** The entry whose skipRange it is (the newer bundle). */
  to: string;
  /** The skipRange as written. */
  range: string;
  /** How many edges it stands for. */
  count: number;
  /** `[start, end)` positions in `byVersion`. */
  runs: [number, number][];
}

export interface ChannelGraph {
  package: string;
  channel: string;
  isDefault: boolean;
  deprecated: string | null;
  head: string | null;
  orderError: string | null;
  nodes: GraphNode[];
  /** The `replaces` and `skips` edges; skipRange edges are in `fans`. */
  edges: GraphEdge[];
  /** Indexes into `nodes` of the entries with a version, ascending by version. */
  byVersion: number[];
  /** skipRange edges kept as ranges, one per entry whose skipRange covers another entry. */
  fans: GraphFan[];
}

export interface PackageGraph {
  package: string;
  defaultChannel: string | null;
  channels: ChannelGraph[];
  /** Every channel listing each bundle name. */
  bundleChannels: Record<string, string[]>;
}

export interface UpgradePathOptions {
  package: string;
  channel: string;
  /**
   * An installed bundle name, or its version ("1.2.0", "v1.2.0"): the bundle of the package with
   * that version, the one the channel lists if any; a version no bundle has is a bare version,
   * upgraded only through a skipRange; a version several bundles have throws `no-path` with
   * their names in `bundles`.
   */
  from: string;
  semantics?: 'v0' | 'v1';
}

export interface UpgradeStep {
  from: string;
  to: string;
  edge: EdgeKind;
}

export interface UpgradePath {
  from: string;
  to: string | null;
  steps: UpgradeStep[];
  stranded: boolean;
  reason: string | null;
  /**
   * How a typed version was read: "1.2.0 is the version of foo.v1.2.0", or that no bundle has it
   * ("1.2.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it").
   * Absent when `from` named a bundle.
   */
  note?: string;
}

/** Options of `graphPicture`: which channel, which path, how much to draw. */
export interface GraphPictureOptions {
  package: string;
  /** Default: the package's default channel (else its first). */
  channel?: string;
  /**
   * An installed bundle name or its version such as "1.2.0" (read as `upgradePath` reads it): its
   * path to the head is highlighted.
   */
  from?: string;
  /** Whose rules the highlighted path follows (as `upgradePath`). Default `v0`. */
  semantics?: 'v0' | 'v1';
  /** Draw every skipRange edge instead of one fan per range (within `fanBudget`, default 2,000). */
  fans?: boolean;
  fanBudget?: number;
  /** Ids of collapsed z-stream groups to show expanded (`group:` and the oldest member's name). */
  expand?: string[];
  /** Collapse z-stream runs in graphs of 100+ nodes (default true; the path stays expanded). */
  collapse?: boolean;
  /** Versions left to right (default) or top to bottom. */
  direction?: 'lr' | 'tb';
}

/** Options of `renderGraphSvg`: the picture's, and how to draw it. */
export interface RenderGraphSvgOptions extends GraphPictureOptions {
  /** Default `light`; `auto` follows `prefers-color-scheme`. */
  theme?: 'light' | 'dark' | 'auto';
  /** Nodes are `role="button"` (a page reacting to them) instead of list items. */
  interactive?: boolean;
  /** The legend, the path's steps and notes below the graph (default true). */
  legend?: boolean;
  /** The root `id` and prefix of every id in the document (default `olm-graph`). */
  idPrefix?: string;
}

export interface PicturePoint {
  x: number;
  y: number;
}

/** A node, placed: `x`, `y` is its top left corner, in pixels at 1:1. */
export interface PictureNode {
  /** Unique in the picture: the bundle name, or `group:` and the oldest member's name. */
  id: string;
  kind: 'bundle' | 'virtual' | 'group';
  name: string;
  version: string | null;
  label: string;
  sublabel: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  head: boolean;
  deprecated: string | null;
  skipped: boolean;
  stranded: boolean;
  onPath: boolean;
  pathStart: boolean;
  /** Which step of the path (1-based) reaches it. */
  pathStep: number | null;
  group: { count: number; first: string; last: string; deprecated: number } | null;
  ariaLabel: string;
}

export interface PictureEdge {
  from: string;
  to: string;
  kind: 'replaces' | 'skips' | 'skipRange' | 'fan';
  onPath: boolean;
  reversed: boolean;
  range: string | null;
  covers: number | null;
  label: string | null;
  points: PicturePoint[];
  /** The route as an SVG path `d`. */
  d: string;
}

export interface PicturePath extends UpgradePath {
  /** One line per step: `a → b (replaces)`. */
  lines: string[];
  /** How many upgrades reach the head, or that the start is already there, or why none does; after the path's `note`. */
  summary: string;
}

/** A channel's upgrade graph laid out: what `renderGraphSvg` draws. */
export interface Picture {
  package: string;
  channel: string;
  isDefaultChannel: boolean;
  head: string | null;
  semantics: 'v0' | 'v1';
  direction: 'left-to-right' | 'top-to-bottom';
  width: number;
  height: number;
  nodes: PictureNode[];
  edges: PictureEdge[];
  path: PicturePath | null;
  title: string;
  description: string;
  notes: string[];
  /** Nodes of the channel graph before collapsing. */
  graphNodes: number;
}

export interface MermaidOptions {
  package?: string;
  channel?: string;
  minimumEdge?: string;
  v0Semantics?: boolean;
}

/** Errors thrown by this package. Validation findings are never thrown: they are data. */
export interface OlmCatalogError extends Error {
  name: 'OlmCatalogError';
  code:
    | 'invalid-input'
    | 'unknown-package'
    | 'unknown-channel'
    | 'no-path'
    | 'no-channels'
    | 'too-large'
    | 'render-failed'
    | 'invalid-catalog'
    | 'no-bundle'
    | 'unknown-bundle'
    | 'no-csv'
    | 'freed'
    | 'stale-handle'
    | 'not-initialized'
    | 'internal-panic'
    | 'internal';
  diagnostics?: Diagnostic[];
  /**
   * `no-path` from `upgradePath` when OLM v0 cannot order the channel (no head, several chains, a
   * cycle): the start, named as a stranded path's `from` (the message says why).
   */
  stranded?: string;
  /** `no-path` when `from` is a version several bundles of the package have: their names (the message asks which one is installed). */
  bundles?: string[];
}

/** A loaded catalog, parsed once. Call `free()` when done (a FinalizationRegistry also frees it). */
export declare class Catalog {
  private constructor();
  report(): Report;
  packages(): PackageSummary[];
  channelGraph(pkg: string): PackageGraph;
  channelGraph(pkg: string, channel: string): ChannelGraph;
  upgradePath(options: UpgradePathOptions): UpgradePath;
  /** `graphPicture(this, options)`. */
  graphPicture(options: GraphPictureOptions): Picture;
  /** `renderGraphSvg(this, options)`. */
  renderGraphSvg(options: RenderGraphSvgOptions): string;
  /** `packageDeps(this, options)`. */
  packageDeps(options: PackageDepsOptions): PackageDeps;
  /** `packageDepsText(this, options)`. */
  packageDepsText(options: PackageDepsOptions): { text: string; failed: boolean };
  toMermaid(options?: MermaidOptions): string;
  toDot(pkg: string, channel?: string): string;
  /** `checkOperatorGroups` of one of this catalog's bundles (`check.package`, `check.bundle`). */
  checkOperatorGroups(check: Omit<OperatorGroupCheck, 'catalog'>): OperatorGroupReport;
  /** The same, as the CLI's text report. */
  checkOperatorGroupsText(check: Omit<OperatorGroupCheck, 'catalog'>): string;
  /** `previewRbac(this, options)`. */
  previewRbac(options: RbacOptions): RbacPreview[];
  /** `previewRbacText(this, options, format)`. */
  previewRbacText(options: RbacOptions, format?: 'text' | 'yaml'): string;
  /** @internal Benchmark hook: every channel's graph and every entry's v0 and v1 path; returns the nodes and paths computed. */
  __graphsAndPaths(): number;
  free(): void;
}

/** `init`'s options. */
export interface InitOptions {
  /** Also load the picture module (as `initPicture`): `true` from its default place, or its `WasmInput`. */
  picture?: boolean | WasmInput;
}

/** Browsers: instantiate the core module first (Node: a no-op). */
export declare function init(input?: string | URL | Response | BufferSource | WebAssembly.Module, options?: InitOptions): Promise<void>;
export default init;

/**
 * Browsers: load the picture module (by default `dist/web-picture/olm_graph_picture_bg.wasm`)
 * before calling `graphPicture`, `renderGraphSvg` (also as `Catalog` methods) or `layoutGraph`:
 * the core module reads the catalog and makes the picture's draft, this small module lays it out
 * and draws it (`await initPicture()`, or `init(input, {picture: true})`). Calling them before
 * throws `not-initialized`. Node: a no-op.
 */
export declare function initPicture(input?: WasmInput): Promise<void>;

/** A `.wasm` for `init`, `initPicture`, `initResolver` or `initTools`: its URL, a `Response`, its bytes or a compiled module. */
export type WasmInput = string | URL | Response | BufferSource | WebAssembly.Module;

/** `initResolver`'s options. */
export interface InitResolverOptions {
  /**
   * Also load the tools' module (as `initTools`): `true` (the default) from its default place,
   * a `WasmInput` from there, `false` not at all (a page that only resolves).
   */
  tools?: boolean | WasmInput;
}

/**
 * Browsers: load the on-demand modules before calling `resolve`, `resolveText` or `resolveV1`
 * (the resolver's module, from `input`, by default `dist/web-resolver/olm_catalog_bg.wasm`) and,
 * unless `options.tools` is `false`, the tools' calls (the tools' module, as `initTools`): `render`,
 * `expandTemplate`, `convertToBasicTemplate`, `diffCatalogs*`, `planEdit`, `applyEdits`,
 * `checkOperatorGroups*`, `previewRbac*`, `toMermaid`, `toDot`, `packageDeps*` (also as `Catalog`
 * methods), `openCatalog` and `formatDiagnostics`. The core module that `init` loads has
 * validation, graphs and paths only, so pages that need no more load less. Node: a no-op.
 */
export declare function initResolver(input?: WasmInput, options?: InitResolverOptions): Promise<void>;

/**
 * Browsers: load the tools' module alone (by default `dist/web-tools/olm_catalog_bg.wasm`) before
 * calling `render`, `expandTemplate`, `convertToBasicTemplate`, `diffCatalogs*`, `planEdit`,
 * `applyEdits`, `checkOperatorGroups*`, `previewRbac*`, `toMermaid`, `toDot`, `packageDeps*`,
 * `openCatalog` or `formatDiagnostics`; the resolver is not in it (`initResolver`). Node: a no-op.
 */
export declare function initTools(input?: WasmInput): Promise<void>;

/** Node only: read a catalog directory (or one file) from disk into `CatalogFile`s. */
export declare function readCatalog(root: string): CatalogFile[];

/** An image reference as containers/image reads it (no registry: Docker Hub). */
export interface ImageReference {
  registry: string;
  repository: string;
  tag: string | undefined;
  digest: string | undefined;
}
/** Parse `REGISTRY/REPO[:TAG][@sha256:…]` (a leading `docker://` dropped); throws on an invalid one. */
export declare function parseReference(reference: string): ImageReference;
/** Whether a string reads as a registry reference with an explicit registry (`quay.io/org/x:1`), not a path. */
export declare function looksLikeReference(s: string): boolean;

/** Where a repository is read from (registries.conf's mirrors and location give several, in order). */
export interface RegistryEndpoint {
  registry: string;
  repository: string;
  /** registries.conf's `insecure`: HTTPS unchecked where the `fetch` can (Node's), else plain HTTP. */
  insecure: boolean;
}
/** A registry's user name and password (or token). */
export interface RegistryCredentials {
  username: string;
  password: string;
}
/** A content-addressed blob store (`sha256:…` → bytes) that checks digests when it gives and keeps. */
export interface BlobCache {
  get(digest: string): Promise<Uint8Array | undefined>;
  /** Refuses (throws) bytes that are not `digest`. */
  put(digest: string, bytes: Uint8Array): Promise<void>;
  /** The files `readImage` unpacked from the image of manifest `digest`, each checked; `undefined` when not all are kept intact. */
  getTree?(digest: string): Promise<CatalogFile[] | undefined>;
  /** Keep the files `readImage` unpacked from the image of manifest `digest` (its `files`). */
  putTree?(digest: string, files: CatalogFile[]): Promise<void>;
}
export interface PullImageOptions {
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Sent on a basic challenge, and to a bearer challenge's token realm; a function is asked per endpoint. */
  credentials?: RegistryCredentials | ((registry: string, repository: string) => RegistryCredentials | undefined | Promise<RegistryCredentials | undefined>);
  /** Every endpoint insecure: HTTPS unchecked where the `fetch` takes an `insecure` init field (Node's `tlsFetch`), else plain HTTP; found once per host. */
  insecure?: boolean;
  /** `os/arch[/variant]` picked from an image index (default `linux/amd64`, else the first). */
  platform?: string;
  /** Where to read the repository from, tried in order for the manifest (default: the reference's own registry). */
  endpoints?: RegistryEndpoint[];
  /** Blobs and manifests are read from and kept in it; with `getTree`, an image whose unpacked files it kept is read without its layers (`content`). */
  cache?: BlobCache;
  /** Use the cache alone (a digest reference whose blobs it has); else throws. */
  offline?: boolean;
  /** Milliseconds without an answer or data before a request is abandoned (and tried again). Default 30000. */
  timeout?: number;
  /** Attempts per request on 429, 5xx, dropped connections and timeouts. Default 4. */
  attempts?: number;
  /** Milliseconds before the second attempt, doubled after each (or the `Retry-After` asked). Default 250. */
  backoff?: number;
}
export interface PulledImage {
  /** An OCI image layout's files, for `readImage(files, {tag})` (without layers when `content` is given). */
  files: CatalogFile[];
  /** What `readImage` gives for the image, when the cache's `getTree` kept the files unpacked from it: no layer was read. */
  content?: ImageContent;
  /** The layout's tag naming the image (`image`). */
  tag: string;
  /** The image manifest's digest. */
  digest: string;
  /** The platform picked from an image index, if the reference named one. */
  platform: string | null;
  /** `registry/repository` of the endpoint read from. */
  repository: string;
}
/**
 * Download an image from its registry through `fetch` (manifests by tag or digest, blobs, the
 * bearer-token challenge flow, basic auth) as an OCI image layout's files; `readImage` then checks
 * every digest and reads it. Browsers: the registry must send CORS headers.
 */
export declare function pullImage(reference: string, options?: PullImageOptions): Promise<PulledImage>;

/** Node only: the image a command-line argument names (`undefined`: a path). */
export declare function imageTransport(arg: string):
  | { transport: 'oci' | 'oci-archive' | 'docker-archive'; path: string; tag: string | undefined }
  | { transport: 'docker'; reference: string }
  | undefined;
/**
 * Node only: credentials for `registry/repository` from the auth files podman and skopeo read
 * (`authfile`, else `REGISTRY_AUTH_FILE`, else `$XDG_RUNTIME_DIR/containers/auth.json`,
 * `~/.config/containers/auth.json`, `~/.docker/config.json`): `auths`, `credHelpers`, `credsStore`.
 */
export declare function registryCredentials(registry: string, repository: string, authfile?: string): RegistryCredentials | undefined;
/** Node only: one `[[registry]]` table of registries.conf. */
export interface RegistriesConfEntry {
  prefix?: string;
  location?: string;
  insecure?: boolean;
  blocked?: boolean;
  'mirror-by-digest-only'?: boolean;
  mirror?: { location: string; insecure?: boolean }[];
}
/**
 * Node only: registries.conf (v2) and its `.d` drop-ins, found as containers/image finds it
 * (`CONTAINERS_REGISTRIES_CONF`, `~/.config/containers/registries.conf`, `/etc/containers/registries.conf`) unless `path` is given.
 */
export declare function loadRegistriesConf(path?: string): Promise<RegistriesConfEntry[]>;
/** Node only: where to read `registry/repository` from (mirrors, then the location); throws when it is blocked. */
export declare function registryEndpoints(entries: RegistriesConfEntry[], registry: string, repository: string, byDigest: boolean): RegistryEndpoint[];
/**
 * Node only: the content-addressed cache at `root`, shared with the native CLI: blobs at
 * `blobs/sha256/HEX`, and the files unpacked from an image at `trees/sha256/HEX` (its manifest's
 * digest: the digest of a blob listing `[path, digest]`, the files being blobs).
 */
export declare function diskCache(root: string): Required<BlobCache>;
/** Node only: `$XDG_CACHE_HOME/olm-catalog`, else `~/.cache/olm-catalog`. */
export declare function defaultCacheRoot(): string;
/**
 * Node only: the CA certificates (PEM text) `registry` (`HOST[:PORT]`) is checked against: every
 * `*.crt` of `certDir` when given, else of the first of `~/.config/containers/certs.d/HOST`,
 * `/etc/containers/certs.d/HOST`, `/etc/docker/certs.d/HOST` that exists.
 */
export declare function registryCertificates(registry: string, certDir?: string): string[];
/**
 * Node only: a `fetch` for `pullImage` over node:https, each host checked against the public roots
 * and its `registryCertificates`, or unchecked when `tlsVerify` is false or the request is to an
 * insecure registry.
 */
export declare function tlsFetch(options?: { tlsVerify?: boolean; certDir?: string }): typeof fetch;
/** Node only: options of `readImageReference`. */
export interface ImageReferenceOptions {
  platform?: string;
  /** The auth file to read credentials from (default: `REGISTRY_AUTH_FILE`, then podman's and docker's files). */
  authfile?: string;
  /** `false`: TLS unchecked (else plain HTTP where HTTPS gets no answer). */
  tlsVerify?: boolean;
  /** The CA certificates (`*.crt`) of every registry, instead of each one's `certs.d/HOST` (`--cert-dir`). */
  certDir?: string;
  /** Read and keep nothing in the cache (`defaultCacheRoot()`). */
  noCache?: boolean;
  /** The cache alone: no network. */
  offline?: boolean;
  fetch?: typeof fetch;
}
/**
 * Node only: read an image named as on the command line — `oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`,
 * `docker-archive:FILE[:REF]` (`-`: standard input), `docker://REF` or `REGISTRY/REPO[:TAG|@DIGEST]` —
 * through `readImage`; `name` is how findings name its files (`REF@DIGEST:/configs`).
 */
export declare function readImageReference(reference: string, options?: ImageReferenceOptions): Promise<ImageContent & { name: string; repository?: string }>;
/** A lint's level (docs/diagnostics.md, "Configuring lints"). */
export type LintLevel = 'off' | 'note' | 'warning' | 'error';

/** The lint configuration, as in `.olm-catalog.yaml`. */
export interface LintConfig {
  /** Levels for every package, by lint code. */
  lints?: Record<string, LintLevel>;
  /** Levels for one package, over `lints`. */
  packages?: Record<string, Record<string, LintLevel>>;
  /** Run the OLM v1 readiness lints (`olmv1-*`). */
  olmV1?: boolean;
  /** Warnings fail the run (`passed` is false). */
  denyWarnings?: boolean;
}

export interface ValidateOptions {
  /** Run the lints (warnings) opm does not have; default true. */
  lints?: boolean;
  /** Lint configuration: `.olm-catalog.yaml` text (YAML or JSON), or the object. A bad one throws (`code: 'invalid-config'`). */
  config?: string | LintConfig;
  /** `code=level` settings over `config` (as the CLI's `--lint`). */
  lint?: string[];
  /** Run the OLM v1 readiness lints (`olmv1-*`); same as `config.olmV1`. In browsers, read in the tools' module as `config` and `lint` are (`await initTools()` first). */
  olmV1?: boolean;
  /** Warnings fail the run (`passed` is false); same as `config.denyWarnings`. */
  denyWarnings?: boolean;
  /** An older catalog: report only the findings it did not have (matched by code, package and message). */
  baseline?: CatalogFile[];
  /** Also run the CRD upgrade-safety lints (`crd-*`, docs/diagnostics.md) on every upgrade edge whose bundles carry CRDs (`olm.bundle.object`), at their configured levels, as the CLI's `validate` does. Tools' module: in browsers, `await initTools()` first. */
  crdSafety?: boolean;
}

/** `validate`'s result: the report, and whether the run passes (`valid`, and no warning with `denyWarnings`). */
export interface ValidateReport extends Report {
  passed: boolean;
}

/**
 * Validate a catalog like `opm validate`, reporting every problem with its location. Browsers:
 * with a lint configuration (`config`, or `lint` settings) the call runs in the tools' module
 * (`await initTools()` first), else in the core.
 */
export declare function validate(files: CatalogFile[], options?: ValidateOptions): ValidateReport;
export declare function loadCatalog(files: CatalogFile[]): Catalog;

/**
 * A catalog being edited, kept inside WebAssembly: each change re-reads only the changed file and
 * re-checks only the packages it touches. Every report equals `validate` of the files as they are
 * now (same findings, same order, same verdict). Call `free()` when done.
 */
export declare class CatalogSession {
  private constructor();
  /** The report of the catalog as it is now. */
  report(): ValidateReport;
  /** Add the file `path` or replace its content; the new report. */
  update(path: string, content: string | Uint8Array): ValidateReport;
  /** Remove the file `path` (nothing happens when there is none); the new report. */
  remove(path: string): ValidateReport;
  free(): void;
}

/**
 * Open an editing session on a catalog; `options` as for `validate` (without `baseline`). In
 * browsers it is in the tools' module: `await initTools()` (or `initResolver()`) first.
 */
export declare function openCatalog(files: CatalogFile[], options?: Omit<ValidateOptions, 'baseline'>): CatalogSession;

/** A CI output format of `formatDiagnostics` (and of `diffCatalogsText`). */
export type ReportFormat = 'sarif' | 'github' | 'markdown' | 'junit';

export interface FormatDiagnosticsOptions {
  format: ReportFormat;
  /** The verdict in the Markdown summary; default: no error among the findings. */
  valid?: boolean;
}

/**
 * Findings (from `validate`, possibly merged from several catalogs) as the CLIs print them:
 * SARIF 2.1.0, GitHub workflow commands, a Markdown pull-request comment, or JUnit XML.
 */
export declare function formatDiagnostics(diagnostics: Diagnostic[], options: FormatDiagnosticsOptions): string;

export type ChangeKind = 'added' | 'removed' | 'changed';

/** A value before and after (`null` when unset or absent on that side). */
export interface ValueChange {
  old: string | null;
  new: string | null;
}

export interface ChannelChange {
  name: string;
  kind: ChangeKind;
  head?: ValueChange;
  entriesAdded: string[];
  entriesRemoved: string[];
  edgesAdded: GraphEdge[];
  edgesRemoved: GraphEdge[];
  deprecation?: ValueChange;
}

export interface PropertyChange {
  type: string;
  added: number;
  removed: number;
  valuesAdded: string[];
  valuesRemoved: string[];
}

/** One field (`replaces`, `skips`, `skipRange`) of a bundle's entry in one channel. */
export interface EntryChange extends ValueChange {
  channel: string;
  field: 'replaces' | 'skips' | 'skipRange';
}

export interface BundleChange {
  name: string;
  kind: ChangeKind;
  version?: string;
  /** `version`, `image`, `properties`, `relatedImages`, `edges`, `deprecation`. */
  fields: string[];
  image?: ValueChange;
  properties: PropertyChange[];
  relatedImagesAdded: string[];
  relatedImagesRemoved: string[];
  edges: EntryChange[];
  deprecation?: ValueChange;
}

export interface PackageChange {
  name: string;
  kind: ChangeKind;
  defaultChannel?: ValueChange;
  deprecation?: ValueChange;
  metadataChanged: boolean;
  channels: ChannelChange[];
  bundles: BundleChange[];
}

/** Where one OLM takes an installed version. */
export interface Route {
  next: string | null;
  path: string[];
  head: string | null;
  stranded: boolean;
  reason?: string;
}

export interface Routes {
  v0: Route;
  v1: Route;
}

export interface SafetyRow {
  channel: string;
  installed: string;
  version: string | null;
  old: Routes;
  /** `null` when the channel (or the package) is gone. */
  new: Routes | null;
  changed: boolean;
  findings: string[];
  /** Present when OLM v1's next step in the new catalog fails its CRD Upgrade Safety preflight (the installed bundle's `olm.bundle.object` CRDs against the next bundle's): operator-controller refuses it. */
  blocked?: BlockedStep;
}

/** An upgrade step OLM v1's CRD Upgrade Safety preflight refuses. */
export interface BlockedStep {
  /** The bundle OLM v1 would upgrade to. */
  next: string;
  /** The first CRD the preflight refuses. */
  crd: string;
  /** The preflight's error, as operator-controller words it (`validating upgrade for CRD "…": …`). */
  reason: string;
  /** The codes of its refusals (`crd-type`). */
  codes: string[];
}

export interface PackageSafety {
  package: string;
  changed: boolean;
  rows: SafetyRow[];
}

/** A finding of a diff, with the edit that fixes it when the diff knows one. */
export interface DiffFinding extends Diagnostic {
  /** The operation (JSON text of an `EditOperation`, a `setEdges` adding to an entry's skips) for `olm-catalog edit CATALOG json --op`, or `JSON.parse` it for `planEdit`. */
  fix?: string;
}

/** The comparison of two catalogs (the CLI's `diff --format json`). */
export interface CatalogDiff {
  packages: PackageChange[];
  /** Broken update promises (`update-*` codes), located in the new catalog (or the old one when the thing is gone). */
  findings: DiffFinding[];
  /** Whether some installed version's path changes (or has a finding); `false` is the text's "update safety: no installed version's path changes". */
  pathsChanged: boolean;
  safety: PackageSafety[];
}

export interface DiffOptions {
  /** Only this package. */
  package?: string;
}

export interface DiffTextOptions extends DiffOptions {
  /** Default `text`; `json` is the CLI's pretty JSON. */
  format?: 'text' | 'json' | ReportFormat;
}

export interface CrdSafetyOptions {
  /** Only this package. */
  package?: string;
  /** Only the edges on the way up from this bundle, or version (`1.2.0`). */
  from?: string;
}

/** One finding of the CRD checks on one CRD of an upgrade. */
export interface CrdFinding {
  /** Stable code (`crd-type`, `crd-olm-v0-stored-version`, …; docs/diagnostics.md). */
  code: string;
  /** `error`: OLM refuses the upgrade (or it cannot be judged); `warning`: a CRD the new bundle drops. */
  severity: Severity;
  /** The preflight's check name (`type`, `enum`, `storedVersionRemoval`, …), or `olmV0StoredVersion`, `removed`, `notComparable`. */
  rule: string;
  crd: string;
  /** The version (`v1`) or served pair (`v1alpha1 -> v1`), when the rule is about one. */
  version: string | null;
  /** The property (`^.spec.replicas`), when the rule is about one. */
  path: string | null;
  /** As OLM words it: `validating upgrade for CRD "…": v1: ^.spec.size: type: type changed : "integer" -> "string"`. */
  message: string;
  /** Where the new CRD is (the old one when it is gone). */
  location: Location;
}

/** One upgrade edge OLM v0 or v1 can take, and its CRDs' findings. */
export interface CrdEdge {
  package: string;
  channel: string;
  from: string;
  to: string;
  /** How the new entry names the old bundle. */
  via: Array<'replaces' | 'skips' | 'skipRange'>;
  safe: boolean;
  /** The new bundle's channel entry. */
  location: Location;
  findings: CrdFinding[];
}

/** The CRD checks of a catalog's edges (the CLI's `crd-safety --format json`). */
export interface CrdSafety {
  /** Every edge is taken by OLM v0 and v1. */
  safe: boolean;
  bundles: number;
  /** Bundles carrying CRDs (`olm.bundle.object`); 0 in an `olm.csv.metadata` catalog. */
  bundlesWithCrds: number;
  comparedPairs: number;
  /** Unsafe edges counted by rule. */
  unsafeEdgesByRule: Record<string, number>;
  /** Every edge whose old bundle carries CRDs. */
  edges: CrdEdge[];
  /** CRDs provided by bundles of several packages. */
  shared: Array<{ crd: string; packages: string[]; location: Location }>;
  /** Every finding as a diagnostic located at the new bundle's channel entry (the CRD related); a `crd-none-in-catalog` note when the catalog carries no CRDs. */
  findings: Diagnostic[];
}

/** CRD upgrade safety (tools' module: `await initTools()` first in browsers): every upgrade edge of a catalog checked as OLM v1's CRD Upgrade Safety preflight and OLM v0 judge it. */
export declare function crdSafety(files: CatalogFile[], options?: CrdSafetyOptions): CrdSafety;

/** Compare an old catalog with a new one (file lists or loaded catalogs): changes, update safety, findings. */
export declare function diffCatalogs(old: CatalogFile[] | Catalog, updated: CatalogFile[] | Catalog, options?: DiffOptions): CatalogDiff;
/** A diff as the CLI prints it. */
export interface DiffText {
  /** The CLI's output for `diff --format …`. */
  text: string;
  /** An update-safety error was found (the CLI exits 1). */
  failed: boolean;
}

/** `diffCatalogs` printed as the CLI's `diff --format …` prints it. */
export declare function diffCatalogsText(old: CatalogFile[] | Catalog, updated: CatalogFile[] | Catalog, options?: DiffTextOptions): DiffText;

/** Output format of rendered catalogs and templates (opm's `-o json|yaml`). */
export type CatalogFormat = 'json' | 'yaml';

export interface RenderOptions {
  /** `'json'` (default, opm's `-o json` form) or `'yaml'`. */
  format?: CatalogFormat;
  /** Embedded manifests become one `olm.csv.metadata` (bundles with an image only, as opm does). */
  migrateLevel?: 'bundle-object-to-csv-metadata';
  /** A bundle directory's image from `{{.Package}}`, `{{.Name}}`, `{{.Version}}` (opm's `--alpha-image-ref-template`). */
  imageRefTemplate?: string;
  /** Also check the result as `validate` does, findings located in the inputs. Default `false`. */
  validate?: boolean;
}

export interface TemplateOptions extends Omit<RenderOptions, 'migrateLevel' | 'validate'> {
  /** Expand as this kind whatever the template's `schema` says (default: detected from it). */
  kind?: 'basic' | 'semver' | 'substitutes';
  /** Check the expansion as `validate` does, findings located in the template. Default `true`. */
  validate?: boolean;
}

export interface PackageText {
  package: string;
  /** The package's blobs, as opm writes `<package>/catalog.<format>`. */
  content: string;
}

export interface RenderResult {
  /** What the input was. */
  kind: 'catalog' | 'bundle-directory' | 'tree' | 'template';
  /** The whole File-Based Catalog as one stream. */
  catalog: string;
  /** The same, one text per package (blobs with no package under `''`). */
  packages: PackageText[];
  /** No error among `diagnostics` (rendering problems, and validation findings when asked). */
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface TemplateResult extends RenderResult {
  /**
   * The bundle images the template names that no bundle source has, in name order: a caller that
   * can fetch images pulls them (`pullImage`, `readImage`) and expands again with them added.
   */
  missingImages: string[];
}

/**
 * A named input of `render` (or bundle source of `expandTemplate`): its findings' files are named
 * as the CLI prints them — `name/<file>`, or `name` itself when `file` is true (a one-file input).
 */
export interface ReadImageOptions {
  /** The image's tag in an OCI layout or oci-archive, or one of a docker-archive's `RepoTags`. */
  tag?: string;
  /** `os/arch[/variant]` of a multi-arch image index (default `linux/amd64`, else the first). */
  platform?: string;
}

export interface ImageContent {
  /** A catalog image (label `operators.operatorframework.io.index.configs.v1`) or a bundle image. */
  kind: 'catalog' | 'bundle';
  /** The manifest's digest (a docker-archive's config digest). */
  digest: string;
  /** A catalog image's catalog directory in the image (`/configs`). */
  configs: string | null;
  /** The platform picked from an image index, if the image is one. */
  platform: string | null;
  /** The catalog's files (relative to its directory), or the bundle's `manifests/…` and `metadata/…`. */
  files: { path: string; content: Uint8Array }[];
  /** Tar entries skipped while unpacking (absolute paths, `..`, links leaving the image, devices). */
  findings: string[];
}

/**
 * Read a catalog or bundle image in the module, without network: an oci-archive or docker-archive
 * tarball's bytes, or an OCI layout folder's files. Every blob is checked against its digest;
 * whiteouts, gzip and zstd layers are handled. The files then go to `validate`, `render` and the
 * rest. Throws `invalid-image` (a digest mismatch, a sqlite index image, no operator label, a
 * budget exceeded). Browsers: `await initTools()` first.
 */
export declare function readImage(image: Uint8Array | CatalogFile[], options?: ReadImageOptions): ImageContent;

export interface RenderInput {
  name: string;
  file?: boolean;
  files: CatalogFile[];
}

/**
 * `opm render`, offline: one input given as its files — a bundle directory (`manifests/`,
 * `metadata/`), a tree of bundle directories (community layout) or package manifests, or a
 * File-Based Catalog — or several named inputs rendered into one catalog (`opm render A B`).
 * A broken bundle is reported and left out; the rest renders.
 */
export declare function render(files: CatalogFile[] | RenderInput[], options?: RenderOptions): RenderResult;
/**
 * Expand an `olm.template.basic`, `olm.semver` or `olm.template.substitutes` template offline.
 * Each bundle image is looked up in `bundleSources` (each a file list `render` reads: catalogs,
 * or bundle directories with `imageRefTemplate`); an image not found is an error located at its
 * line in the template. `diagnostics` holds the expansion's findings, then the bundle sources'
 * (as warnings: they do not make the result invalid). `missingImages` lists the images not found.
 */
export declare function expandTemplate(template: CatalogFile, bundleSources: (CatalogFile[] | RenderInput)[], options?: TemplateOptions): TemplateResult;
/**
 * `opm alpha convert-template basic`: a catalog as a basic template (bundles reduced to
 * `{schema, image}`). Throws an `OlmCatalogError` with code `invalid-catalog` and `diagnostics`
 * when the catalog does not load.
 */
export declare function convertToBasicTemplate(files: CatalogFile[], options?: { format?: CatalogFormat }): string;
export declare function packages(catalog: Catalog): PackageSummary[];
export declare function channelGraph(catalog: Catalog, pkg: string): PackageGraph;
export declare function channelGraph(catalog: Catalog, pkg: string, channel: string): ChannelGraph;
export declare function upgradePath(catalog: Catalog, options: UpgradePathOptions): UpgradePath;
/**
 * A channel's upgrade graph laid out (the same layout as the SVG, the site and the element).
 * Takes a loaded catalog, or a file list loaded for this call. Throws `unknown-package`,
 * `unknown-channel`, `no-channels`, `no-path` (a `from` that names nothing) or `too-large`.
 * Browsers: `await initPicture()` first (the layout is in the picture module).
 */
export declare function graphPicture(catalog: Catalog | CatalogFile[], options: GraphPictureOptions): Picture;
/** The picture as a standalone, accessible SVG document (browsers: `await initPicture()` first). */
export declare function renderGraphSvg(catalog: Catalog | CatalogFile[], options: RenderGraphSvgOptions): string;
/**
 * The layered layout the pictures use, for any graph a page draws: node boxes and edges by node
 * index (list nodes oldest first: ranks follow the edges, the input order breaks ties). At most
 * 100,000 nodes and 500,000 edges (`too-large`); an edge naming a missing node is `invalid-input`.
 * Browsers: `await initPicture()` first.
 */
export declare function layoutGraph(input: LayoutGraphInput): LayoutGraphResult;
export interface LayoutGraphInput {
  nodes: { width: number; height: number }[];
  edges?: { from: number; to: number }[];
  direction?: 'lr' | 'tb';
  rankGap?: number;
  nodeGap?: number;
}
export interface LayoutGraphResult {
  /** One per input node: top left corner, size, rank and position in the rank. */
  nodes: { x: number; y: number; width: number; height: number; rank: number; order: number }[];
  /** One per input edge: the route from the source's side to the target's, and as an SVG path. */
  edges: { points: PicturePoint[]; reversed: boolean; d: string }[];
  width: number;
  height: number;
  /** Edge crossings left between adjacent ranks. */
  crossings: number;
}
export declare function toMermaid(catalog: Catalog, options?: MermaidOptions): string;
export declare function toDot(catalog: Catalog, pkg: string, channel?: string): string;
/** One property of a bundle or installed operator. */
export interface PropertyValue {
  type: string;
  value: unknown;
}

/** A catalog given inline, in the shape of the conformance cases. */
export interface InlineCatalog {
  name: string;
  namespace: string;
  /** Higher is preferred; default 0. */
  priority?: number;
  packages: Array<{
    name: string;
    defaultChannel?: string | null;
    channels: Array<{
      name: string;
      entries: Array<{ name: string; replaces?: string; skips?: string[]; skipRange?: string }>;
    }>;
    bundles: Array<{ name: string; version: string; properties?: PropertyValue[] }>;
  }>;
}

/** A loaded catalog made visible as a catalog source. */
export interface AttachedCatalog {
  name: string;
  namespace: string;
  priority?: number;
  catalog: Catalog;
}

/** An installed ClusterServiceVersion. */
export interface InstalledOperator {
  name: string;
  /** `spec.version`; empty means 0.0.0. */
  version?: string;
  properties?: PropertyValue[];
  /** `status.phase` (fail-forward only). */
  phase?: string;
  /** `spec.replaces` (fail-forward only). */
  replaces?: string;
}

export interface Subscription {
  name: string;
  /** `spec.name`. */
  package: string;
  /** Empty matches every channel. */
  channel?: string;
  /** `spec.source`. */
  catalog?: string;
  /** `spec.sourceNamespace`. */
  catalogNamespace?: string;
  installedCSV?: string;
  startingCSV?: string;
}

/** What OLM v0 is asked to resolve in one namespace. */
export interface ResolveProblem {
  namespace: string;
  /** Namespaces whose catalogs are visible; default `[namespace]`. */
  resolutionNamespaces?: string[];
  catalogs: Array<InlineCatalog | AttachedCatalog>;
  installed?: InstalledOperator[];
  subscriptions?: Subscription[];
  systemConstraints?: Array<{ bundle: string; message: string }>;
  failForward?: boolean;
}

/** A bundle to install or upgrade to. */
export interface Install {
  name: string;
  package: string;
  version: string;
  channel: string;
  catalog: string;
  catalogNamespace: string;
  /** The installed CSV this upgrades, or the bundle's own `replaces`. */
  replaces: string | null;
  startingCSV: string | null;
}

/**
 * Why a bundle was picked. The text of the requirement that asked for it is formatted on demand:
 * `ResolveOutcome.requiredBy(pick)`.
 */
export interface PickReason {
  bundle: string;
  name: string;
  installed: boolean;
  /**
   * Who had the requirement that asked for it (`subscription <name>`, `bundle <name>`); `null`
   * when it was mandatory on its own (then it has no requirement text either).
   */
  requester: string | null;
  rank: number;
  candidates: number;
  rejected: string[];
  why: string;
}

/** The failure explanation: requirements, their candidates and what excluded each. */
export interface Explanation {
  message: string;
  children?: Explanation[];
}

/** The result of `resolve` (resolution failures are data, not exceptions). */
export interface ResolveOutcome {
  install: Install[];
  errors: string[];
  errorType: 'NotSatisfiable' | 'Error' | 'TooHard' | null;
  explanation: Explanation | null;
  /**
   * Why each bundle was picked, on success (empty on failure). Worked out when first read, by
   * resolving the same problem again (so the loaded catalogs it named must not have been freed
   * yet: reading it then throws `code: "freed"`), since most callers read only `install`; later
   * reads see the same array. Enumerable: `JSON.stringify` and `structuredClone` include it.
   */
  picks: PickReason[];
  /**
   * The text of the requirement that asked for a pick (one of `picks`, or its index): OLM's
   * constraint message, e.g. `subscription foo requires at least one of cat/ns/stable/foo.v2,
   * cat/ns/stable/foo.v1` (up to 50 candidates, then a count), or `bundle app.v1 requires an
   * operator providing an API with group: …`; `null` when the pick was mandatory on its own.
   * Formatted on demand, since these texts would be most of the outcome and most callers never
   * read them: the first call resolves the same problem again and formats every pick's text (so
   * the loaded catalogs it named must not have been freed yet); later calls read them. Not an
   * own enumerable property: `JSON.stringify` and `structuredClone` leave it out. Throws
   * `code: "invalid-input"` for a pick that is not one of this outcome's.
   */
  requiredBy(pick: PickReason | number): string | null;
}

/** OLM v1's single-package selection input. */
export interface V1Problem {
  packageName: string;
  channels?: string[];
  versionRange?: string;
  upgradeConstraintPolicy?: 'CatalogProvided' | 'SelfCertified';
  installedBundle?: { name: string; version: string; release?: string } | null;
  catalogs: Array<{
    name: string;
    priority?: number;
    unavailable?: boolean;
    package?: {
      channels: Array<{
        name: string;
        entries: Array<{ name: string; replaces?: string; skips?: string[]; skipRange?: string }>;
      }>;
      bundles: Array<{ name: string; version: string }>;
      deprecatedBundles?: string[];
    } | null;
  }>;
}

export interface V1Pick {
  bundle: string;
  version: string;
  catalog: string;
  channels: string[];
  deprecated: boolean;
}

/** Resolve subscriptions and dependencies as OLM v0 does. Throws only on malformed input. */
export declare function resolve(problem: ResolveProblem): ResolveOutcome;
/** `resolve`, rendered as the CLI's text report. */
export declare function resolveText(problem: ResolveProblem): string;
/** OLM v1's pick for one package; throws `code: "no-bundle"` with OLM v1's message. */
export declare function resolveV1(problem: V1Problem): V1Pick;
/** @internal Benchmark baseline: parse only, returns the number of documents. */
export declare function __parseOnly(files: CatalogFile[]): number;
/** @internal Benchmark baseline of validate (Node's module): the trees kept and every `olm.bundle.object` payload decoded into one; returns the number of documents and manifests. */
export declare function __parseAndDecode(files: CatalogFile[]): number;
/** @internal Benchmark hook: the resolution alone (Node's module), returns the number of installs. */
export declare function __resolveCount(problem: ResolveProblem): number;

// ---- operator groups and RBAC

export type InstallModeType = 'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces';

/** A namespace of the cluster and its labels (what label selectors choose from). */
export interface ClusterNamespace {
  name: string;
  labels?: Record<string, string>;
}

/** A Kubernetes `LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

/** An OperatorGroup of the cluster. */
export interface OperatorGroupSpec {
  name: string;
  namespace: string;
  /** `spec.targetNamespaces` (when non-empty, `selector` is ignored). */
  targetNamespaces?: string[];
  /** `spec.selector`; absent or empty selects all namespaces. */
  selector?: LabelSelector | null;
  staticProvidedAPIs?: boolean;
  /** The group's `olm.providedAPIs` annotation. */
  providedAPIsAnnotation?: string | null;
  upgradeStrategy?: 'Default' | 'TechPreviewUnsafeFailForward';
  /** `status.namespaces` when known (`""` is all namespaces); else computed from the spec. */
  statusNamespaces?: string[] | null;
}

/** One instance of the operator for one tenant (a bundle of the check's package). */
export interface TenantInstanceSpec {
  namespace: string;
  bundle: string;
  /** Its group's target namespaces; absent: those of its namespace's group in `operatorGroups`. */
  targetNamespaces?: string[];
}

/**
 * An OperatorGroup check, in the shape of the CLI's CHECK file (and of the `operatorgroup`
 * conformance cases' inputs): the CSV is a bundle of a loaded `catalog` (`package`, `bundle`), or
 * given inline by its install modes and provided APIs.
 */
export interface OperatorGroupCheck {
  /** The catalog holding the bundle (the CLI's `path`, loaded). */
  catalog?: Catalog;
  package?: string;
  bundle?: string;
  /** Inline install modes, type → supported. */
  installModes?: Record<string, boolean>;
  /** Inline install modes as a CSV lists them (duplicates kept). */
  installModesList?: Array<{ type: string; supported?: boolean }>;
  /** Inline provided APIs. */
  providedAPIs?: Array<{ group?: string; version?: string; kind?: string }>;
  /** The namespace the CSV is created in. */
  operatorNamespace: string;
  /** Without `operatorGroups`: the one group's status namespaces (`""` is all namespaces). */
  targetNamespaces?: string[];
  namespaces?: ClusterNamespace[];
  operatorGroups?: OperatorGroupSpec[];
  /** Instances of the package across tenants (with `catalog`), for the multitenancy check. */
  instances?: TenantInstanceSpec[];
}

export type OperatorGroupFailureReason =
  | 'NoOperatorGroup'
  | 'TooManyOperatorGroups'
  | 'NoTargetNamespaces'
  | 'InvalidInstallModes'
  | 'UnsupportedOperatorGroup'
  | 'InterOperatorGroupOwnerConflict'
  | 'CannotModifyStaticOperatorGroupProvidedAPIs';

/** Where OLM's syncs leave the CSV. */
export type MembershipOutcome =
  | { outcome: 'supported' }
  | { outcome: 'failed'; reason: OperatorGroupFailureReason; message: string }
  | { outcome: 'stalled'; message: string }
  | { outcome: 'invalidGroup'; message: string };

export type ApiReconciliation = 'RemoveAPIs' | 'AddAPIs' | 'APIConflict' | 'NoAPIConflict';

export interface Membership {
  outcome: MembershipOutcome;
  /** `name/namespace` of the CSV's group, when there is exactly one. */
  operatorGroup: string | null;
  /** The annotations OLM writes on the CSV (`olm.operatorGroup`, `olm.operatorNamespace`, `olm.targetNamespaces`). */
  csvAnnotations: Record<string, string>;
  providedApisBefore: string | null;
  providedApisAfter: string | null;
  apiReconciliation: ApiReconciliation[];
  intersectingGroups: string[];
  /** What each sync does, in order. */
  syncs: string[];
}

export interface ModeSupport {
  mode: InstallModeType;
  supported: boolean;
}

export interface ModeWatch {
  mode: InstallModeType;
  targetNamespaces: string[];
  /** What a group of this kind makes the operator watch, in words. */
  watches: string;
  supported: boolean;
  /** OLM's message when not supported. */
  message: string | null;
}

export interface InstallPlan {
  csvName: string | null;
  source: 'olm.bundle.object' | 'olm.csv.metadata';
  operatorNamespace: string;
  installModes: ModeSupport[];
  /** The `olm.providedAPIs` form of the CSV's APIs. */
  providedApis: string;
  watches: ModeWatch[];
  diagnostics: Diagnostic[];
}

/** The result of `checkOperatorGroups` (the CLI's `operatorgroup --format json`). */
export interface OperatorGroupReport {
  bundle: string | null;
  namespace: string;
  membership: Membership;
  installPlan: InstallPlan;
  /** Findings about `instances` (absent without any). */
  multitenancy?: Diagnostic[];
}

export interface RbacOptions {
  package: string;
  /** Default: the head of the package's default channel. */
  bundle?: string;
  /** Default: each mode the CSV supports. */
  installMode?: InstallModeType;
  /** The operator's namespace; default `"operators"`. */
  namespace?: string;
  /** The group's target namespaces (default: an example for the mode; `[""]` is all namespaces). */
  targetNamespaces?: string[];
  /** Default `"operator-group"`. */
  operatorGroup?: string;
}

export interface RbacTarget {
  installMode: InstallModeType;
  operatorNamespace: string;
  operatorGroup: string;
  /** Sorted; `[""]` for all namespaces. */
  targetNamespaces: string[];
}

export interface RbacRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A Role (with `namespace`) or ClusterRole. */
export interface GeneratedRole {
  /** The name OLM gives it (generated names end in OLM's hash, cut to fit 63 characters). */
  name: string;
  namespace?: string;
  /** OLM's labels, `olm.permissions.hash` included on the objects made from the CSV's permissions. */
  labels: Record<string, string>;
  rules: RbacRule[];
  /** The aggregation rule's `matchLabels` selectors. */
  aggregationSelectors?: Array<Record<string, string>>;
  /** True on a Role of the operator's namespace lifted to a ClusterRole (AllNamespaces). */
  lifted?: boolean;
}

/** A RoleBinding (with `namespace`) or ClusterRoleBinding. */
export interface GeneratedBinding {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  roleKind: 'Role' | 'ClusterRole';
  roleName: string;
  serviceAccount: string;
  serviceAccountNamespace: string;
}

/** One row of what a service account may touch. */
export interface RbacAccess {
  serviceAccount: string;
  /** `null`: cluster-wide. */
  namespace: string | null;
  apiGroup: string;
  /** A resource, or a non-resource URL. */
  resource: string;
  resourceNames: string[];
  verbs: string[];
  nonResourceUrl: boolean;
}

/** The RBAC OLM generates for a CSV under one OperatorGroup. */
export interface RbacPreview {
  csvName: string;
  target: RbacTarget;
  /** OLM's message when the CSV does not support the install mode (it then fails). */
  unsupported: string | null;
  /** False for `olm.csv.metadata`, which carries no install strategy. */
  permissionsKnown: boolean;
  groupClusterRoles: GeneratedRole[];
  apiClusterRoles: GeneratedRole[];
  serviceAccounts: string[];
  roles: GeneratedRole[];
  roleBindings: GeneratedBinding[];
  clusterRoles: GeneratedRole[];
  clusterRoleBindings: GeneratedBinding[];
  /** OLM's error when its permission check meets an invalid rule (it then neither copies nor lifts the Roles). */
  permissionCheckError: string | null;
  access: RbacAccess[];
  notes: string[];
}

/**
 * Check a CSV against a cluster's OperatorGroups as OLM does: supported or OLM's failure reason
 * and message, the annotations it writes, the bundle's install modes and, with `instances`,
 * multitenancy findings. Throws `invalid-input` on a malformed check, `unknown-package`,
 * `unknown-bundle` or `no-csv` when the catalog bundle cannot be read.
 */
export declare function checkOperatorGroups(check: OperatorGroupCheck): OperatorGroupReport;
/** `checkOperatorGroups`, rendered as the CLI's text report. */
export declare function checkOperatorGroupsText(check: OperatorGroupCheck): string;
/**
 * The RBAC OLM generates for a bundle of `catalog`: one preview per install mode asked for, or
 * per mode the CSV supports (`[]` when it supports none). Throws `unknown-package`,
 * `unknown-channel` (no default channel head), `unknown-bundle`, `no-csv`, or `invalid-input`
 * (bad options, target namespaces that do not fit the mode).
 */
export declare function previewRbac(catalog: Catalog, options: RbacOptions): RbacPreview[];
/**
 * `previewRbac` as the CLI prints it: `'text'` (default), or `'yaml'`, the objects of one install
 * mode as Kubernetes manifests (a multi-document stream for `kubectl apply`, the CLI's `rbac
 * --format yaml`); throws `invalid-input` when `installMode` is left out and the CSV supports
 * several modes.
 */
export declare function previewRbacText(catalog: Catalog, options: RbacOptions, format?: 'text' | 'yaml'): string;

// ---- Cross-package view (`packageDeps`, tools' module in browsers: `await initTools()` first; the CLI's `deps --format json`)

/** `packageDeps` options. */
export interface PackageDepsOptions {
  package: string;
  /** Only the package's channel heads: their requirements, the APIs they provide, who requires those. */
  headsOnly?: boolean;
}

/**
 * `satisfied`: a bundle of the catalog satisfies it; `unsatisfied`: none does; `unknown`: it
 * depends on a CEL rule (shown, not evaluated); `invalid`: OLM cannot read it.
 */
export type DepsStatus = 'satisfied' | 'unsatisfied' | 'unknown' | 'invalid';

export interface GvkRef {
  group: string;
  version: string;
  kind: string;
}

/** A bundle of the catalog that satisfies a requirement (or, in `otherVersions`, does not). */
export interface DepsProvider {
  package: string;
  bundle: string;
  version: string | null;
  channels: string[];
  headOf: string[];
}

/** One node of an `olm.constraint`, with what the catalog makes of it. */
export interface ConstraintNode {
  op: 'gvk' | 'package' | 'cel' | 'all' | 'any' | 'not';
  /** `GVK g/v Kind`, `package p >=1.0.0`, the CEL rule, or `all(…)` of the children. */
  text: string;
  failureMessage: string;
  status: DepsStatus;
  /** How many bundles certainly satisfy it. */
  matches: number;
  children: ConstraintNode[];
}

/** One requirement, merged over the package's bundles that declare it. */
export interface DepsRequirement {
  property: string;
  kind: 'package' | 'gvk' | 'label' | 'constraint';
  /** `package p >=1.0.0`, `GVK g/v Kind`, `label l`, or the constraint's text. */
  text: string;
  package?: string;
  range?: string;
  gvk?: GvkRef;
  label?: string;
  constraint?: ConstraintNode;
  declaredBy: string[];
  declaredByHeads: string[];
  status: DepsStatus;
  /** Why OLM cannot read it (`invalid`). */
  error?: string;
  /** By package, newest first; at most 100 (`providerCount` is complete). */
  providers: DepsProvider[];
  providerCount: number;
  /** Package requirements: the package's bundles outside the range. */
  otherVersions: DepsProvider[];
}

/** Bundles of another package requiring this one, or an API it provides. */
export interface DepsRequirer {
  package: string;
  property: string;
  /** `package p >=1.0.0` or `GVK g/v Kind`. */
  text: string;
  bundles: string[];
  heads: string[];
  /** Whether this package's bundles (heads, with `headsOnly`) satisfy it. */
  satisfied: boolean;
}

/** The cross-package view of one package. */
export interface PackageDeps {
  package: string;
  headsOnly: boolean;
  bundles: { name: string; version: string | null; channels: string[]; headOf: string[]; deprecated: boolean }[];
  requirements: DepsRequirement[];
  provides: { gvk: GvkRef; text: string; bundles: string[] }[];
  requiredBy: DepsRequirer[];
  summary: {
    bundles: number;
    requirements: number;
    satisfied: number;
    unsatisfied: number;
    unknown: number;
    invalid: number;
    requiredBy: number;
  };
}

/**
 * What a package requires and which bundles provide it, what nothing in the catalog satisfies,
 * and who requires the package. Throws an `OlmCatalogError` with code `unknown-package` or
 * `invalid-input`.
 */
export declare function packageDeps(catalog: Catalog, options: PackageDepsOptions): PackageDeps;
/** `packageDeps` as the CLI's `deps` text; `failed`: a requirement is unsatisfied or invalid (the CLI exits 1). */
export declare function packageDepsText(catalog: Catalog, options: PackageDepsOptions): { text: string; failed: boolean };

// ---- Catalog edits (tools' module in browsers: `await initTools()` first) ----

/** How a new entry's upgrade edges are chosen. */
export type EdgePolicy =
  | { kind: 'replaces' }
  | { kind: 'skipRange' }
  | { kind: 'semver' }
  | { kind: 'explicit'; replaces?: string; skips?: string[]; skipRange?: string };

/** A bundle to add: an `olm.bundle` blob (JSON/YAML text or an object), or an image with name and version. */
export type NewBundle = { blob: string | Record<string, unknown> } | { image: string; name: string; version: string };

/** One catalog edit, as plain data. */
export type EditOperation =
  | { op: 'addBundle'; package: string; bundle: NewBundle; channels: string[]; edge?: EdgePolicy }
  | { op: 'promote'; package: string; bundle: string; channel: string; edge?: EdgePolicy }
  | { op: 'createChannel'; package: string; channel: string; bundles: string[]; edge?: EdgePolicy }
  | { op: 'renameChannel'; package: string; channel: string; to: string }
  | { op: 'removeChannel'; package: string; channel: string }
  | { op: 'setDefaultChannel'; package: string; channel: string }
  | { op: 'deprecate'; package: string; bundle?: string; channel?: string; message: string }
  | { op: 'undeprecate'; package: string; bundle?: string; channel?: string }
  | { op: 'removeBundle'; package: string; bundle: string }
  | { op: 'setEdges'; package: string; channel: string; bundle: string; replaces?: string; skips?: string[]; skipRange?: string };

/** An LSP position: 0-based line, UTF-16 character. */
export interface LspPosition { line: number; character: number }

/** One replacement of a byte range of a file (a new file: an insertion at 0..0). */
export interface TextEdit {
  file: string;
  range: { start: number; end: number };
  lsp: { start: LspPosition; end: LspPosition };
  newText: string;
}

/** One channel's graph before and after an edit (`null` where the channel does not exist). */
export interface GraphChange { package: string; channel: string; before: ChannelGraph | null; after: ChannelGraph | null }

/** What an operation would do. */
export interface EditPlan {
  edits: TextEdit[];
  /** The edits that undo `edits`, against the edited files. */
  undo: TextEdit[];
  diff: CatalogDiff;
  /** Update-safety findings, then validation findings new in the edited catalog, then the CRD safety findings (`crd-*` codes) its package's upgrade edges would newly have: what the edit would make unsafe. */
  findings: Diagnostic[];
  graphs: GraphChange[];
}

/**
 * Check an operation against the catalog and compute its edits and preview. Throws an `Error`
 * with `code` (`no-package`, `no-channel`, `no-bundle`, `refused`, `stranded`, `invalid`,
 * `unreadable`, `bad-edit`, `invalid-operation`), `op` and `detail` (the error's fields).
 */
export declare function planEdit(files: CatalogFile[], operation: EditOperation, options?: PlanEditOptions): EditPlan;
/**
 * Options of `planEdit`. When a basic (`olm.template.basic`) or semver (`olm.semver`) template
 * among the files expands to the operation's package, the template is edited (its formatting
 * kept) and the preview (diff, findings, graphs) is that of its expansion; its bundle images are
 * looked up in `bundles` (file lists, as `expandTemplate`'s bundle sources) and in the catalog
 * files beside it. A semver template takes `addBundle`, `promote` and `removeBundle` only.
 */
export interface PlanEditOptions { bundles?: CatalogFile[][] }
/** The files with the edits applied (overlapping edits throw `code: "bad-edit"`). */
export declare function applyEdits(files: CatalogFile[], edits: TextEdit[]): { path: string; content: string }[];
