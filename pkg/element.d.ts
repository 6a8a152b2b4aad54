// Types of `olm-catalog/element`: the `<olm-upgrade-graph>` custom element (element.js).
import type { Catalog, CatalogFile, Picture, PictureNode, OlmCatalogError, CrdSafety, CrdEdge } from './index.js';

/** What `node-select` carries: the bundle picked, by click (`pointer`) or Enter/Space (`keyboard`). */
export interface NodeSelectDetail {
  /** The bundle name. */
  bundle: string;
  version: string | null;
  node: PictureNode;
  source: 'pointer' | 'keyboard';
}

export interface OlmUpgradeGraphEventMap extends HTMLElementEventMap {
  'node-select': CustomEvent<NodeSelectDetail>;
  'graph-render': CustomEvent<{ picture: Picture }>;
  'graph-error': CustomEvent<{ error: OlmCatalogError }>;
  /** An unsafe edge's mark picked (click, Enter or Space): the `crdSafety` edge. */
  'edge-select': CustomEvent<{ edge: CrdEdge }>;
}

/**
 * `<olm-upgrade-graph src package channel from semantics fans theme>`: a channel's upgrade graph
 * with the path from `from` to the head highlighted and listed. Attributes: `src` (URL of a
 * catalog file, JSON-lines, or a directory index `{"files": [...]}`), `package` (default: the
 * catalog's only package), `channel` (default: the package's default channel), `from` (bundle
 * name or version), `semantics` (`v0` | `v1`), `fans` (boolean), `theme` (`light` | `dark` | `auto`).
 */
export declare class OlmUpgradeGraph extends HTMLElement {
  static readonly observedAttributes: string[];
  /** A loaded `Catalog` (drawn on the page's thread, after `await initPicture()` there) or files (loaded in the worker); wins over `src`. */
  catalog: Catalog | CatalogFile[] | null;
  /** A `crdSafety` result of the catalog (`await initTools()` first in browsers): the edges its CRDs make unsafe are marked and the path's steps say why. */
  crdSafety: CrdSafety | null;
  /** The last drawn picture. */
  readonly picture: Picture | null;
  readonly state: 'idle' | 'loading' | 'ready' | 'error';
  /** Focus a node by id (bundle name, or a group's id); false when it is not drawn. */
  focusNode(id: string): boolean;
  addEventListener<K extends keyof OlmUpgradeGraphEventMap>(type: K, listener: (this: OlmUpgradeGraph, ev: OlmUpgradeGraphEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof OlmUpgradeGraphEventMap>(type: K, listener: (this: OlmUpgradeGraph, ev: OlmUpgradeGraphEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** Where the worker script, the core `.wasm` and the picture module's `.wasm` are, when not beside this module (call before the first element loads). */
export declare function configure(urls: { workerUrl?: string | URL; wasmUrl?: string | URL; pictureWasmUrl?: string | URL }): void;

/** Register the element under `name` (default `olm-upgrade-graph`; done on import). */
export declare function define(name?: string): void;

declare global {
  interface HTMLElementTagNameMap {
    'olm-upgrade-graph': OlmUpgradeGraph;
  }
}
