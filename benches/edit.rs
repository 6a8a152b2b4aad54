//! Edit plan benchmark (issue 17): on community-v4.20, the median time of planning each of a few
//! operations with `plan_edit` (a full validation before and after) and with an open
//! `EditSession` (only the touched files and their packages re-checked, one package's model
//! rebuilt), measured in the same run, their ratio, and the target: a session plan well under
//! 200 ms.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use olm_catalog::edit::{plan_edit, EditSession, Operation};
use olm_catalog::validate::Options;

const OPS: [&str; 4] = [
    r#"{"op":"deprecate","package":"kube-green","bundle":"kube-green.v0.5.0","message":"old"}"#,
    r#"{"op":"promote","package":"clusterpulse","bundle":"clusterpulse.v0.3.0","channel":"candidate"}"#,
    r#"{"op":"removeBundle","package":"cat-facts-operator","bundle":"cat-facts-operator.v1.1.0"}"#,
    r#"{"op":"addBundle","package":"opendatahub-operator","bundle":{"image":"q/odh:99","name":"opendatahub-operator.v99.0.0","version":"99.0.0"},"channels":["fast"]}"#,
];

fn main() {
    let files = common::read(&common::fbc_dir().join("community-v4.20"));
    let runs = common::runs();
    let t = std::time::Instant::now();
    let mut editor = EditSession::open(files.clone(), Options::default());
    println!("community-v4.20: {} files; session opened in {:.0} ms", files.len(), t.elapsed().as_secs_f64() * 1e3);
    let mut worst: f64 = 0.0;
    for json in OPS {
        let op: Operation = serde_json::from_str(json).expect("operation");
        if let Err(e) = editor.plan(&op) {
            println!("  {}: {e}", op.name());
            continue;
        }
        let full = common::time(runs, || {
            std::hint::black_box(plan_edit(&files, &op).ok());
        });
        let session = common::time(runs, || {
            std::hint::black_box(editor.plan(&op).ok());
        });
        let (f, s) = (full.as_secs_f64() * 1e3, session.as_secs_f64() * 1e3);
        worst = worst.max(s);
        println!(
            "  {:<14} {:<24} plan_edit {f:>8.1} ms   session {s:>7.1} ms   ({:.0}×)",
            op.name(),
            op.package(),
            f / s
        );
    }
    common::target("edit plan in a session on community-v4.20 (slowest op)", &format!("{worst:.1} ms"), worst < 200.0);
}
