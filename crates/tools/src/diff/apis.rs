//! Provided APIs dropped while another package still requires them: a channel head of the new
//! catalog no longer provides an `olm.gvk` that the old head provided and that a bundle of another
//! package requires (`olm.gvk.required`), or no bundle of a package satisfies an
//! `olm.package.required` range any more that the old catalog satisfied. Either way, upgrading
//! breaks the dependents' resolution.

use std::collections::{BTreeMap, BTreeSet};

use super::locate::{self, bundle_of};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::gotext::quote as q;
use crate::model::{Bundle, Model, Package};
use crate::property::{Gvk, Property};

/// The findings, each with the package whose change caused it.
pub(crate) fn dropped(old: &Model, new: &Model) -> Vec<(String, Diagnostic)> {
    let mut out = gvks(old, new);
    out.extend(packages(old, new));
    out
}

fn gvk_text(g: &Gvk) -> String {
    format!("{}/{}, Kind={}", g.group, g.version, g.kind)
}

/// The `olm.gvk` values a bundle provides, with their property index.
fn provided(b: &Bundle) -> impl Iterator<Item = (usize, &Gvk)> {
    b.properties.iter().filter_map(|(i, p)| match p {
        Property::Gvk(g) => Some((*i, g)),
        _ => None,
    })
}

/// Who requires each GVK in a catalog: (package, bundle, property index).
fn requirers(m: &Model) -> BTreeMap<&Gvk, Vec<(&Package, &Bundle, usize)>> {
    let mut out: BTreeMap<&Gvk, Vec<_>> = BTreeMap::new();
    for p in &m.packages {
        for b in &p.bundles {
            for (i, prop) in &b.properties {
                if let Property::GvkRequired(g) = prop {
                    out.entry(g).or_default().push((p, b, *i));
                }
            }
        }
    }
    out
}

/// The head bundle of each channel of `p`, by channel name.
fn heads(p: &Package) -> BTreeMap<&str, &Bundle> {
    p.channels.iter().filter_map(|c| Some((c.name.as_str(), bundle_of(p, c.head().ok()?)?))).collect()
}

fn gvks(old: &Model, new: &Model) -> Vec<(String, Diagnostic)> {
    let required = requirers(new);
    let mut out = Vec::new();
    for po in &old.packages {
        let Some(pn) = new.package(&po.name) else { continue };
        let (ho, hn) = (heads(po), heads(pn));
        // gvk -> (channels, old head and property, new head)
        let mut lost: BTreeMap<&Gvk, (Vec<&str>, Location, &Bundle)> = BTreeMap::new();
        for (c, bo) in &ho {
            let Some(bn) = hn.get(c) else { continue };
            let now: BTreeSet<&Gvk> = provided(bn).map(|(_, g)| g).collect();
            for (i, g) in provided(bo).filter(|(_, g)| !now.contains(g)) {
                let l = lost.entry(g).or_insert_with(|| (Vec::new(), locate::property(bo, i), bn));
                l.0.push(c);
            }
        }
        for (g, (channels, was, head)) in lost {
            let Some(users) = required.get(g) else { continue };
            let others: Vec<_> = users.iter().filter(|(p, _, _)| p.name != po.name).collect();
            let Some((up, ub, ui)) = others.first() else { continue };
            let names: BTreeSet<&str> = others.iter().map(|(p, _, _)| p.name.as_str()).collect();
            let names: Vec<String> = names.into_iter().map(q).collect();
            let chans: Vec<String> = channels.iter().map(|c| q(c)).collect();
            let d = Diagnostic::error(
                Code::UpdateRequiredApiDropped,
                format!(
                    "the head {} of channel {} of package {} no longer provides the API {} that the old head provided, but {} still require it (olm.gvk.required): while they are installed, OLM v0 silently keeps users on the old version (its resolver takes no upgrade that strands a dependent), and OLM v1, which resolves no dependencies, upgrades them and breaks them; keep the API in the head (an owned CRD or API service), or release those packages without the requirement first",
                    q(&head.name.value),
                    chans.join(", "),
                    q(&po.name),
                    q(&gvk_text(g)),
                    names.join(", ")
                ),
                locate::bundle(head),
            )
            .with_related(format!("required by {} of package {}", q(&ub.name.value), q(&up.name)), locate::property(ub, *ui))
            .with_related("provided by the old head (in the old catalog)", was);
            out.push((po.name.clone(), d));
        }
    }
    out
}

/// `olm.package.required` ranges the old catalog satisfied and the new one does not.
fn packages(old: &Model, new: &Model) -> Vec<(String, Diagnostic)> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for q_pkg in &new.packages {
        for b in &q_pkg.bundles {
            for (i, prop) in &b.properties {
                let Property::PackageRequired(r) = prop else { continue };
                let Ok(range) = &r.range else { continue };
                if r.package_name == q_pkg.name
                    || !seen.insert((q_pkg.name.as_str(), r.package_name.as_str(), r.version_range.as_str()))
                {
                    continue;
                }
                let satisfied = |m: &Model| -> Option<Location> {
                    let p = m.package(&r.package_name)?;
                    p.bundles.iter().find(|x| x.version.as_ref().is_some_and(|v| range.contains(v))).map(locate::bundle)
                };
                let (Some(was), None) = (satisfied(old), satisfied(new)) else { continue };
                let d = Diagnostic::error(
                    Code::UpdateRequiredApiDropped,
                    format!(
                        "no bundle of package {} in the new catalog has a version in {}, which {} of package {} requires (olm.package.required); the old catalog had one: OLM v0 can no longer resolve an install of it (OLM v1 resolves no dependencies); keep a bundle of that version in the catalog, or widen the range",
                        q(&r.package_name),
                        q(&r.version_range),
                        q(&b.name.value),
                        q(&q_pkg.name)
                    ),
                    locate::property(b, *i),
                )
                .with_related("a bundle that satisfied it (in the old catalog)", was);
                out.push((r.package_name.clone(), d));
            }
        }
    }
    out
}
