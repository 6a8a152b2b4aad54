// Compiled with `tsc --strict` against the published types: fails if index.d.ts is inconsistent
// with how the API is meant to be used.
import { validate, loadCatalog, openCatalog, type CatalogSession, init, initResolver, initTools, type WasmInput, type InitResolverOptions, resolve, resolveText, resolveV1, render, expandTemplate, convertToBasicTemplate, type RenderResult, type TemplateResult, type RenderOptions, type TemplateOptions, type RenderInput, type PackageText, type CatalogFormat, type Report, type ValidateReport, type LintConfig, type ChannelGraph, type PackageGraph, type UpgradePath, type OlmCatalogError, type ResolveOutcome, type ResolveProblem, type V1Pick } from 'olm-catalog';

await init();
await initResolver();
const wasmUrl: WasmInput = new URL('https://example.com/olm_catalog_resolver_bg.wasm');
const resolverOnly: InitResolverOptions = { tools: false };
await initResolver(wasmUrl, resolverOnly);
await initResolver(undefined, { tools: new URL('https://example.com/olm_catalog_tools_bg.wasm') });
await initTools();
await initTools(new Uint8Array());
const report: Report = validate([{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }]);
const first = report.diagnostics[0];
const where: string = `${first?.file}:${first?.line}:${first?.column} ${first?.code} ${first?.severity}`;
const catalog = loadCatalog([{ path: 'c.yaml', content: new Uint8Array() }]);
const g: ChannelGraph = catalog.channelGraph('x', 'stable');
const all: PackageGraph = catalog.channelGraph('x');
const p: UpgradePath = catalog.upgradePath({ package: 'x', channel: 'stable', from: '1.0.0', semantics: 'v1' });
const mermaid: string = catalog.toMermaid({ v0Semantics: true });
const problem: ResolveProblem = {
  namespace: 'ns',
  catalogs: [{ name: 'c', namespace: 'ns', priority: 1, catalog }],
  subscriptions: [{ name: 's', package: 'x', channel: 'stable', catalog: 'c', catalogNamespace: 'ns' }],
};
const outcome: ResolveOutcome = resolve(problem);
const firstInstall: string | undefined = outcome.install[0]?.name;
const tree: string | undefined = outcome.explanation?.children?.[0]?.message;
const report2: string = resolveText(problem);
const firstPick = outcome.picks[0];
const requirement: string | null = firstPick ? outcome.requiredBy(firstPick) ?? outcome.requiredBy(0) : null;
const pick: V1Pick = resolveV1({ packageName: 'x', catalogs: [{ name: 'c', package: null }] });
console.log(firstInstall, tree, report2.length, pick.bundle, outcome.errorType ?? 'ok', outcome.picks[0]?.why, requirement);
catalog.free();
const session: CatalogSession = openCatalog([{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }], { lints: false });
const edited: ValidateReport = session.update('c.yaml', new Uint8Array());
const removed: boolean = session.remove('c.yaml').passed;
console.log(edited.valid, removed, session.report().diagnostics.length);
session.free();
try {
  validate([]);
} catch (e) {
  const err = e as OlmCatalogError;
  const code: OlmCatalogError['code'] = err.code;
  const askedBack: string[] | undefined = err.bundles;
  console.log(code, askedBack);
}
const note: string | undefined = p.note;
console.log(where, g.nodes.length, all.channels.length, p.steps.length, mermaid.length, note);

const renderOptions: RenderOptions = { format: 'yaml', migrateLevel: 'bundle-object-to-csv-metadata', imageRefTemplate: 'q/{{.Name}}', validate: true };
const rendered: RenderResult = render([{ path: 'manifests/csv.yaml', content: '' }], renderOptions);
const inputs: RenderInput[] = [{ name: 'bundles/a', files: [] }, { name: 'catalog.yaml', file: true, files: [] }];
const combined: RenderResult = render(inputs);
const kind: 'catalog' | 'bundle-directory' | 'tree' | 'template' = rendered.kind;
const firstPackage: PackageText | undefined = combined.packages[0];
const templateOptions: TemplateOptions = { format: 'json', kind: 'semver', imageRefTemplate: 'q/{{.Version}}', validate: false };
const expanded: TemplateResult = expandTemplate({ path: 't.yaml', content: 'schema: olm.semver\n' }, [[], { name: 'dir', files: [] }], templateOptions);
const format: CatalogFormat = 'yaml';
const basic: string = convertToBasicTemplate([], { format });
console.log(kind, rendered.valid, rendered.catalog.length, firstPackage?.content, expanded.diagnostics[0]?.line, expanded.missingImages.length, basic.length);

// OperatorGroup checks and RBAC previews.
import { checkOperatorGroups, checkOperatorGroupsText, previewRbac, previewRbacText, type OperatorGroupCheck, type OperatorGroupReport, type RbacOptions, type RbacPreview, type InstallModeType, type MembershipOutcome } from 'olm-catalog';
const ogCatalog = loadCatalog([]);
const inlineCheck: OperatorGroupCheck = {
  installModes: { OwnNamespace: true, AllNamespaces: false },
  providedAPIs: [{ group: 'x.io', version: 'v1', kind: 'X' }],
  operatorNamespace: 'operators',
  targetNamespaces: ['operators'],
};
const catalogCheck: OperatorGroupCheck = {
  catalog: ogCatalog,
  package: 'x',
  bundle: 'x.v1',
  operatorNamespace: 'operators',
  namespaces: [{ name: 'team-a', labels: { tenant: 'a' } }],
  operatorGroups: [{ name: 'og', namespace: 'operators', selector: { matchLabels: { tenant: 'a' } }, upgradeStrategy: 'Default' }],
  instances: [{ namespace: 'operators', bundle: 'x.v1' }],
};
const ogReport: OperatorGroupReport = checkOperatorGroups(inlineCheck);
const outcome2: MembershipOutcome = ogReport.membership.outcome;
const reason: string = outcome2.outcome === 'failed' ? outcome2.reason : outcome2.outcome;
const watched: string[] | undefined = ogReport.installPlan.watches[0]?.targetNamespaces;
const tenantCodes: string[] = (ogReport.multitenancy ?? []).map((d) => d.code);
const { catalog: _handle, ...inCatalog } = catalogCheck;
const ogText: string = checkOperatorGroupsText(catalogCheck) + ogCatalog.checkOperatorGroupsText(inCatalog);
const sameReport: OperatorGroupReport = ogCatalog.checkOperatorGroups(inCatalog);
const mode: InstallModeType = 'OwnNamespace';
const rbacOptions: RbacOptions = { package: 'x', bundle: 'x.v1', installMode: mode, namespace: 'ops', targetNamespaces: ['ops'], operatorGroup: 'og' };
const previews: RbacPreview[] = previewRbac(ogCatalog, rbacOptions);
const firstPreview: RbacPreview | undefined = ogCatalog.previewRbac({ package: 'x' })[0];
const unsupported: string | null | undefined = firstPreview?.unsupported;
const checkError: string | null | undefined = firstPreview?.permissionCheckError;
const lifted: string[] = previews.flatMap((p) => p.clusterRoles.filter((r) => r.lifted === true).map((r) => r.name));
const touches: string[] = previews.flatMap((p) => p.access.map((a) => `${a.namespace ?? '*'} ${a.apiGroup}/${a.resource}: ${a.verbs.join(',')}`));
const rbacYaml: string = previewRbacText(ogCatalog, rbacOptions, 'yaml') + ogCatalog.previewRbacText(rbacOptions);
console.log(reason, watched, tenantCodes, ogText.length, sameReport.bundle, unsupported, checkError, lifted, touches, rbacYaml.length, firstPreview?.roles[0]?.rules[0]?.verbs);
// Lint configuration, baselines and the OLM v1 switch.
const lintConfig: LintConfig = { lints: { 'z-stream-gap': 'off' }, packages: { foo: { 'stranded-entry': 'note' } }, olmV1: true };
const configured: ValidateReport = validate([], { config: lintConfig, lint: ['head-not-highest=error'], denyWarnings: true, baseline: [] });
const passed: boolean = configured.passed;
const fromText: ValidateReport = validate([], { config: 'lints: {z-stream-gap: warning}\n', olmV1: true });
const noteSeverity: 'error' | 'warning' | 'note' = fromText.diagnostics[0]?.severity ?? 'note';
void passed; void noteSeverity;

// Catalog diffs and CI formats.
{
  const { diffCatalogs, diffCatalogsText, formatDiagnostics } = await import('olm-catalog');
  const files = [{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }];
  const d: import('olm-catalog').CatalogDiff = diffCatalogs(files, loadCatalog(files), { package: 'x' });
  const stranded: boolean | undefined = d.safety[0]?.rows[0]?.new?.v0.stranded;
  const fix: string | undefined = d.findings[0]?.fix;
  const pathsChanged: boolean = d.pathsChanged;
  void fix; void pathsChanged;
  const md: string = diffCatalogsText(files, files, { format: 'markdown' }).text;
  const sarif: string = formatDiagnostics(d.findings, { format: 'sarif', valid: true });
  console.log(stranded, md.length, sarif.length, d.packages[0]?.channels[0]?.edgesAdded[0]?.kind);
}
// The picture (issue 16): a Catalog or a file list, the Picture's shape, the SVG's options.
import { graphPicture, renderGraphSvg, type Picture, type PictureNode, type RenderGraphSvgOptions } from 'olm-catalog';
const files = [{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }];
const picture: Picture = graphPicture(files, { package: 'x', from: '1.0.0', semantics: 'v1', fans: true, expand: ['group:x.v1.0.0'], direction: 'tb' });
const onPath: PictureNode[] = picture.nodes.filter((n) => n.onPath && n.kind !== 'group');
const svgOptions: RenderGraphSvgOptions = { package: 'x', theme: 'auto', interactive: true, legend: false, idPrefix: 'g1' };
const svg: string = renderGraphSvg(loadCatalog(files), svgOptions);
console.log(onPath.map((n) => n.ariaLabel), picture.edges[0]?.d, picture.path?.lines.join('\n'), svg.length);
import { layoutGraph, type LayoutGraphResult } from 'olm-catalog';
const laid: LayoutGraphResult = layoutGraph({ nodes: [{ width: 10, height: 10 }], edges: [], direction: 'tb' });
console.log(laid.nodes[0]?.rank, laid.edges.length, laid.crossings);

// packageDeps (core module)
import { packageDeps, type PackageDeps, type DepsRequirement, type DepsStatus, type ConstraintNode } from 'olm-catalog';
const deps: PackageDeps = packageDeps(catalog, { package: 'x', headsOnly: true });
const viaMethod: PackageDeps = catalog.packageDeps({ package: 'x' });
const firstReq: DepsRequirement | undefined = deps.requirements[0];
const st: DepsStatus = firstReq?.status ?? 'unknown';
const depsTree: ConstraintNode | undefined = firstReq?.constraint;
const who: string[] = viaMethod.requiredBy.map((r) => `${r.package} ${r.text} ${r.satisfied} ${st} ${depsTree?.op}`);

// CRD upgrade safety (tools' module), and the diff rows it blocks.
import { crdSafety, type CrdSafety, type CrdEdge, type CrdFinding, type BlockedStep, type SafetyRow } from 'olm-catalog';
const crds: CrdSafety = crdSafety(files, { package: 'x', from: '1.0.0' });
const unsafeEdge: CrdEdge | undefined = crds.edges.find((e) => !e.safe);
const crdFinding: CrdFinding | undefined = unsafeEdge?.findings[0];
const blockedRow = (r: SafetyRow): BlockedStep | undefined => r.blocked;
console.log(crds.unsafeEdgesByRule['type'], crdFinding?.rule, crdFinding?.path, crdFinding?.location.line, blockedRow);

// Catalog edits.
{
  const { planEdit, applyEdits } = await import('olm-catalog');
  const files = [{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }];
  const op: import('olm-catalog').EditOperation = { op: 'deprecate', package: 'x', message: 'gone' };
  const plan: import('olm-catalog').EditPlan = planEdit(files, op);
  const line: number = plan.edits[0]?.lsp.start.line ?? 0;
  const out: string = applyEdits(files, plan.undo)[0]?.content ?? '';
  const add: import('olm-catalog').EditOperation = {
    op: 'addBundle', package: 'x', channels: ['a'], edge: { kind: 'explicit', skips: ['y'] },
    bundle: { image: 'r/x:1', name: 'x.v1', version: '1.0.0' },
  };
  console.log(line, out.length, plan.graphs[0]?.after?.nodes.length, add.op);
}

// Images: the registry client and Node's reader of image references.
{
  const { pullImage, parseReference, looksLikeReference, readImageReference, readImage, imageTransport, diskCache } = await import('olm-catalog');
  const ref: import('olm-catalog').ImageReference = parseReference('quay.io/org/index:v1');
  const cache = diskCache('/tmp/olm-catalog-cache');
  const pulled: import('olm-catalog').PulledImage = await pullImage('quay.io/org/index:v1', { insecure: false, platform: 'linux/amd64', cache });
  const content: import('olm-catalog').ImageContent = pulled.content ?? readImage(pulled.files, { tag: pulled.tag });
  const kept: import('olm-catalog').CatalogFile[] | undefined = await cache.getTree(content.digest);
  await cache.putTree(content.digest, kept ?? content.files);
  const named: string = (await readImageReference('oci:layout:cat', { tlsVerify: false })).name;
  console.log(ref.registry, looksLikeReference('x'), content.kind, named, imageTransport('oci:x')?.transport);
}
