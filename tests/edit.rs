//! Edits on real catalogs (`../shared/catalogs/fbc`): YAML and JSON, one file per package and one
//! file for several packages. Each operation's result validates with no new error, its catalog
//! diff is exactly the intended change, and only the lines the edits name change. A seeded
//! random walk of operations checks that the edited text reloads to the model each operation
//! predicts, and that the undo edits give back the original bytes.

use std::path::Path;

use olm_catalog::diff::ChangeKind;
use olm_catalog::edit::{apply_edits, plan_edit, EditPlan, Operation};
use olm_catalog::{read_catalog, validate_files, FileInput, Model};

const FBC: &str = "../shared/catalogs/fbc";

fn catalog(rel: &str) -> Vec<FileInput> {
    read_catalog(&Path::new(FBC).join(rel)).expect("the shared catalogs are present")
}

/// Two packages' YAML in one file.
fn single_file() -> Vec<FileInput> {
    let mut text = Vec::new();
    for p in ["nfs-provisioner-operator", "kubevirt-wol"] {
        text.extend(catalog(&format!("community-v4.20/{p}")).remove(0).content);
    }
    vec![FileInput::new("catalog.yaml", text)]
}

fn op(json: &str) -> Operation {
    serde_json::from_str(json).expect("operation")
}

/// The plan, checked: no new error, and every changed line of every file is inside an edit.
fn checked(files: &[FileInput], o: &Operation) -> (EditPlan, Vec<FileInput>) {
    let plan = plan_edit(files, o).unwrap_or_else(|e| panic!("{}: {e}", o.name()));
    let errors: Vec<_> = plan.findings.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{}: new errors {errors:?}", o.name());
    let after = apply_edits(files, &plan.edits).expect("edits apply");
    for f in files {
        let new = &after.iter().find(|a| a.path == f.path).expect("file kept").content;
        let old = &f.content;
        // The bytes that differ lie between the first and the last edit of the file.
        let prefix = old.iter().zip(new.iter()).take_while(|(a, b)| a == b).count();
        let suffix = old.iter().rev().zip(new.iter().rev()).take_while(|(a, b)| a == b).count();
        let mine: Vec<_> = plan.edits.iter().filter(|e| e.file == f.path).collect();
        if mine.is_empty() {
            assert_eq!(old, new, "{}: {} changed without an edit", o.name(), f.path);
            continue;
        }
        let lo = mine.iter().map(|e| e.range.start).min().unwrap();
        let hi = mine.iter().map(|e| e.range.end).max().unwrap();
        assert!(prefix.min(old.len()) >= lo.min(prefix), "{}", o.name());
        assert!(
            prefix >= lo || old == new,
            "{}: byte {prefix} of {} changed before the first edit ({lo})",
            o.name(),
            f.path
        );
        assert!(
            old.len().saturating_sub(suffix) <= hi || old == new,
            "{}: {} changed after the last edit",
            o.name(),
            f.path
        );
    }
    let reloaded = validate_files(&after);
    assert_eq!(reloaded.report.valid, validate_files(files).report.valid);
    (plan, after)
}

fn model(files: &[FileInput]) -> Model {
    (*validate_files(files).model).clone()
}

#[test]
fn deprecate_creates_the_blob_then_undeprecate_removes_it_yaml_and_json() {
    for (files, package, bundle) in [
        (
            catalog("community-v4.20/nfs-provisioner-operator"),
            "nfs-provisioner-operator",
            "nfs-provisioner-operator.v0.0.8",
        ),
        (single_file(), "kubevirt-wol", "kubevirt-wol.v0.0.2"),
        (catalog("kube-descheduler/v4.16/catalog"), "cluster-kube-descheduler-operator", ""),
    ] {
        let m = model(&files);
        let bundle =
            if bundle.is_empty() { m.package(package).unwrap().bundles[0].name.value.clone() } else { bundle.into() };
        let d = op(&format!(
            r#"{{"op":"deprecate","package":"{package}","bundle":"{bundle}","message":"use the next one"}}"#
        ));
        let (plan, after) = checked(&files, &d);
        let changes = &plan.diff.packages[0];
        assert_eq!(changes.bundles.len(), 1, "{changes:?}");
        assert_eq!(changes.bundles[0].name, bundle);
        assert!(changes.channels.is_empty() && changes.default_channel.is_none());
        let m2 = model(&after);
        let b = m2.package(package).unwrap().bundle(&bundle).unwrap();
        assert_eq!(b.deprecation.as_ref().unwrap().message.value, "use the next one");
        let u = op(&format!(r#"{{"op":"undeprecate","package":"{package}","bundle":"{bundle}"}}"#));
        let (_, back) = checked(&after, &u);
        assert_eq!(back, files, "deprecate then undeprecate gives back the bytes");
    }
}

#[test]
fn set_default_channel_and_promote_in_json() {
    let files = catalog("kube-descheduler/v4.16/catalog");
    let m = model(&files);
    let p = &m.packages[0];
    let head = p.default_channel().unwrap().head().unwrap().name.value.clone();
    let promote = op(&format!(r#"{{"op":"promote","package":"{}","bundle":"{head}","channel":"candidate"}}"#, p.name));
    let (plan, after) = checked(&files, &promote);
    let ch = &plan.diff.packages[0].channels;
    assert_eq!((ch.len(), ch[0].kind, ch[0].entries_added.clone()), (1, ChangeKind::Added, vec![head.clone()]));
    assert!(String::from_utf8_lossy(&after[0].content)
        .contains("    \"schema\": \"olm.channel\",\n    \"name\": \"candidate\""));
    let set = op(&format!(r#"{{"op":"setDefaultChannel","package":"{}","channel":"candidate"}}"#, p.name));
    let (plan, _) = checked(&after, &set);
    let dc = plan.diff.packages[0].default_channel.clone().unwrap();
    assert_eq!(dc.new.as_deref(), Some("candidate"));
    assert_eq!(plan.edits.len(), 1);
}

#[test]
fn add_bundle_replaces_the_head_and_remove_bundle_rewires() {
    let files = catalog("community-v4.20/nfs-provisioner-operator");
    let add = op(r#"{"op":"addBundle","package":"nfs-provisioner-operator",
        "bundle":{"image":"quay.io/x/nfs:0.0.10","name":"nfs-provisioner-operator.v0.0.10","version":"0.0.10"},
        "channels":["alpha"]}"#);
    let (plan, after) = checked(&files, &add);
    let c = &plan.diff.packages[0].channels[0];
    assert_eq!(c.entries_added, vec!["nfs-provisioner-operator.v0.0.10".to_string()]);
    assert_eq!(c.head.as_ref().unwrap().new.as_deref(), Some("nfs-provisioner-operator.v0.0.10"));
    let m = model(&after);
    let e = m
        .package("nfs-provisioner-operator")
        .unwrap()
        .channel("alpha")
        .unwrap()
        .entry("nfs-provisioner-operator.v0.0.10")
        .cloned()
        .unwrap();
    assert_eq!(e.replaces.value, "nfs-provisioner-operator.v0.0.9");
    // Removing the middle version re-wires the new head to replace 0.0.8.
    let remove =
        op(r#"{"op":"removeBundle","package":"nfs-provisioner-operator","bundle":"nfs-provisioner-operator.v0.0.9"}"#);
    let (plan, after2) = checked(&after, &remove);
    let removed: Vec<_> = plan.diff.packages[0]
        .bundles
        .iter()
        .filter(|b| b.kind == ChangeKind::Removed)
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(removed, ["nfs-provisioner-operator.v0.0.9"]);
    let m = model(&after2);
    let ch = m.package("nfs-provisioner-operator").unwrap().channel("alpha").unwrap().clone();
    assert_eq!(ch.entries.len(), 2);
    assert_eq!(ch.entry("nfs-provisioner-operator.v0.0.10").unwrap().replaces.value, "nfs-provisioner-operator.v0.0.8");
    // The head cannot be removed.
    let head =
        op(r#"{"op":"removeBundle","package":"nfs-provisioner-operator","bundle":"nfs-provisioner-operator.v0.0.10"}"#);
    assert!(plan_edit(&after2, &head).unwrap_err().to_string().contains("is the head of channel"));
}

#[test]
fn channels_are_created_renamed_and_removed_in_one_file_with_two_packages() {
    let files = single_file();
    let create = op(r#"{"op":"createChannel","package":"nfs-provisioner-operator","channel":"beta",
        "bundles":["nfs-provisioner-operator.v0.0.9","nfs-provisioner-operator.v0.0.8"],"edge":{"kind":"skipRange"}}"#);
    let (_, after) = checked(&files, &create);
    let m = model(&after);
    let beta = m.package("nfs-provisioner-operator").unwrap().channel("beta").unwrap().clone();
    assert_eq!(beta.entries[1].skip_range_text(), ">=0.0.8 <0.0.9");
    assert_eq!(beta.entries[1].skips[0].value, "nfs-provisioner-operator.v0.0.8");
    let rename = op(r#"{"op":"renameChannel","package":"nfs-provisioner-operator","channel":"alpha","to":"stable"}"#);
    // Renaming strands the old channel's subscribers: the preview says so.
    let plan = plan_edit(&after, &rename).unwrap();
    assert_eq!(plan.findings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["update-channel-removed"]);
    let after = apply_edits(&after, &plan.edits).unwrap();
    assert_eq!(plan.diff.packages[0].default_channel.as_ref().unwrap().new.as_deref(), Some("stable"));
    let remove = op(r#"{"op":"removeChannel","package":"nfs-provisioner-operator","channel":"beta"}"#);
    let plan = plan_edit(&after, &remove).unwrap();
    assert_eq!(plan.diff.packages[0].channels[0].kind, ChangeKind::Removed);
    assert_eq!(plan.findings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["update-channel-removed"]);
    let after = apply_edits(&after, &plan.edits).unwrap();
    // The other package's text is untouched throughout.
    let other = |f: &[FileInput]| {
        String::from_utf8_lossy(&f[0].content).split("name: kubevirt-wol\n").nth(1).map(str::to_string)
    };
    assert_eq!(other(&after), other(&files));
    let default = op(r#"{"op":"removeChannel","package":"nfs-provisioner-operator","channel":"stable"}"#);
    assert!(plan_edit(&after, &default).unwrap_err().to_string().contains("default channel"));
}

/// A small deterministic generator (xorshift), so the walk is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A random operation on `package` and the check of the model it predicts.
/// What an operation predicts of the reloaded model.
type Prediction = Box<dyn Fn(&Model) -> bool>;

fn random_op(rng: &mut Rng, m: &Model, package: &str, step: usize) -> (Operation, Prediction) {
    let p = m.package(package).unwrap();
    let channels: Vec<String> = p.channels.iter().filter(|c| c.source.is_some()).map(|c| c.name.clone()).collect();
    let c = channels[rng.next(channels.len())].clone();
    let bundle = p.bundles[rng.next(p.bundles.len())].name.value.clone();
    let pk = package.to_string();
    match rng.next(6) {
        0 => {
            let msg = format!("step {step}");
            let (b, mm) = (bundle.clone(), msg.clone());
            let o = Operation::Deprecate { package: pk.clone(), bundle: Some(bundle), channel: None, message: msg };
            (
                o,
                Box::new(move |m| {
                    m.package(&pk)
                        .unwrap()
                        .bundle(&b)
                        .unwrap()
                        .deprecation
                        .as_ref()
                        .is_some_and(|d| d.message.value == mm)
                }),
            )
        }
        1 => {
            let cc = c.clone();
            (
                Operation::Deprecate { package: pk.clone(), bundle: None, channel: Some(c), message: "old".into() },
                Box::new(move |m| m.package(&pk).unwrap().channel(&cc).unwrap().deprecation.is_some()),
            )
        }
        2 => {
            let cc = c.clone();
            (
                Operation::SetDefaultChannel { package: pk.clone(), channel: c },
                Box::new(move |m| m.package(&pk).unwrap().default_channel.value == cc),
            )
        }
        3 => {
            let (b, cc) = (bundle.clone(), format!("ch-{}", step % 3));
            (
                Operation::Promote { package: pk.clone(), bundle, channel: cc.clone(), edge: Default::default() },
                Box::new(move |m| m.package(&pk).unwrap().channel(&cc).is_some_and(|c| c.entry(&b).is_some())),
            )
        }
        4 => {
            let range = format!("<{}.0.0", step + 1);
            let (b, cc, r) = (bundle.clone(), c.clone(), range.clone());
            let o = Operation::SetEdges {
                package: pk.clone(),
                channel: c,
                bundle,
                replaces: None,
                skips: None,
                skip_range: Some(range),
            };
            (
                o,
                Box::new(move |m| {
                    m.package(&pk).unwrap().channel(&cc).unwrap().entry(&b).is_some_and(|e| e.skip_range_text() == r)
                }),
            )
        }
        _ => {
            let b = bundle.clone();
            (
                Operation::Undeprecate { package: pk.clone(), bundle: Some(bundle), channel: None },
                Box::new(move |m| m.package(&pk).unwrap().bundle(&b).unwrap().deprecation.is_none()),
            )
        }
    }
}

#[test]
fn random_walks_reload_to_the_predicted_model_and_undo_to_the_original_bytes() {
    for (files, package) in [
        (catalog("community-v4.20/nfs-provisioner-operator"), "nfs-provisioner-operator"),
        (single_file(), "kubevirt-wol"),
        (catalog("kube-descheduler/v4.16/catalog"), "cluster-kube-descheduler-operator"),
        (catalog("openshift-optional-v4.17/clusterresourceoverride"), "clusterresourceoverride"),
    ] {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut current = files.clone();
        let mut undo_stack = Vec::new();
        let mut applied = 0;
        for step in 0..24 {
            let m = model(&current);
            let (o, predicted) = random_op(&mut rng, &m, package, step);
            let Ok(plan) = plan_edit(&current, &o) else { continue };
            let after = apply_edits(&current, &plan.edits).unwrap();
            assert!(predicted(&model(&after)), "{package} step {step}: {o:?} did not give the predicted model");
            let back = apply_edits(&after, &plan.undo).unwrap();
            assert_eq!(&back[..current.len()], &current[..], "{package} step {step}: undo of {o:?}");
            undo_stack.push(plan.undo);
            current = after;
            applied += 1;
        }
        assert!(applied >= 8, "{package}: only {applied} operations applied");
        while let Some(undo) = undo_stack.pop() {
            current = apply_edits(&current, &undo).unwrap();
        }
        let created_empty = current[files.len()..].iter().all(|f| f.content.is_empty());
        assert!(
            created_empty && current[..files.len()] == files[..],
            "{package}: undoing the walk restores every byte"
        );
    }
}

#[test]
fn undeprecate_removes_a_deprecation_of_a_bundle_or_channel_that_is_gone() {
    let mut files = catalog("community-v4.20/nfs-provisioner-operator");
    let stale = "---\nschema: olm.deprecations\npackage: nfs-provisioner-operator\nentries:\n\
                 - reference: {schema: olm.bundle, name: nfs-provisioner-operator.v9.9.9}\n  message: gone\n\
                 - reference: {schema: olm.channel, name: nightly}\n  message: gone too\n";
    files.push(FileInput::new("deprecations.yaml", stale));
    let codes = |files: &[FileInput]| -> Vec<String> {
        validate_files(files).report.diagnostics.iter().map(|d| d.code.to_string()).collect()
    };
    assert_eq!(codes(&files).iter().filter(|c| *c == "deprecated-not-found").count(), 2);
    for o in [
        r#"{"op":"undeprecate","package":"nfs-provisioner-operator","bundle":"nfs-provisioner-operator.v9.9.9"}"#,
        r#"{"op":"undeprecate","package":"nfs-provisioner-operator","channel":"nightly"}"#,
    ] {
        let plan = plan_edit(&files, &op(o)).unwrap_or_else(|e| panic!("{o}: {e}"));
        files = apply_edits(&files, &plan.edits).unwrap();
    }
    assert!(!codes(&files).iter().any(|c| c == "deprecated-not-found"), "{:?}", codes(&files));
    let refused =
        plan_edit(&files, &op(r#"{"op":"undeprecate","package":"nfs-provisioner-operator","channel":"nightly"}"#));
    assert!(refused.unwrap_err().to_string().contains("not deprecated"));
}
