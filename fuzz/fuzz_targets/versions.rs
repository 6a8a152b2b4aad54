//! Version, release and range parsing (blang strict and tolerant, `skipRange`, OLM v1's
//! Masterminds constraints) over fuzzed text: never a panic, and the algebra holds — a parsed
//! version prints back to itself, comparison is antisymmetric and ranges answer `contains`.
//!
//! The input is up to four lines: two versions, a blang range, a Masterminds constraint.
#![no_main]

use std::cmp::Ordering;

use libfuzzer_sys::fuzz_target;
use olm_catalog::version::{Constraints, MastermindsVersion, Release, Version, VersionRange, VersionRelease};

fn check_version(v: &Version) {
    let printed = v.to_string();
    let again = Version::parse(&printed).unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
    assert_eq!(again.to_string(), printed);
    assert_eq!(again.compare(v), Ordering::Equal);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.splitn(4, '\n');
    let (a, b) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
    let (range, constraint) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));

    let mut versions = Vec::new();
    for s in [a, b] {
        if let Ok(v) = Version::parse(s) {
            check_version(&v);
            versions.push(v);
        }
        if let Ok(v) = Version::parse_tolerant(s) {
            check_version(&v);
            versions.push(v);
        }
        if let Ok(vr) = VersionRelease::from_legacy_version(s) {
            let _ = vr.to_string();
        }
        if let Ok(Some(r)) = Release::parse(s) {
            assert!(!r.as_str().is_empty());
        }
        if let Some(m) = MastermindsVersion::parse(s) {
            assert_eq!(m.compare(&m), Ordering::Equal);
        }
    }
    for x in &versions {
        for y in &versions {
            assert_eq!(x.compare(y), y.compare(x).reverse(), "{x} vs {y}");
        }
    }
    for s in [a, range] {
        if let Ok(r) = VersionRange::parse(s) {
            let _ = r.to_string();
            for v in &versions {
                let _ = r.contains(v);
            }
        }
    }
    if let Ok(c) = Constraints::parse(constraint) {
        for v in &versions {
            let _ = c.matches(v);
        }
        for s in [a, b] {
            if let Some(m) = MastermindsVersion::parse(s) {
                let _ = c.check(&m);
            }
        }
    }
});
