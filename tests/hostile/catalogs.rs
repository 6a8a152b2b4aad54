//! The hostile catalogs of issue 15 ("graph abuse"), generated deterministically: well-formed
//! File-Based Catalogs (one JSON file each) whose shape pushes the graph layer and validation to
//! their worst case. Shared by `tests/hostile.rs` and `benches/hostile.rs` (with `#[path]`).
#![allow(dead_code)]

use std::fmt::Write as _;

use olm_catalog::declcfg::FileInput;

/// One hostile catalog: its name, the package and channel to look at, the entry whose upgrade
/// path is asked for (the oldest), and the file.
pub struct Hostile {
    /// Short name, for output.
    pub name: &'static str,
    /// What it is, in words.
    pub what: String,
    /// The package.
    pub package: String,
    /// The channel whose graph and path are asked for.
    pub channel: String,
    /// The oldest entry of that channel (the start of the upgrade path).
    pub oldest: String,
    /// The catalog, as one JSON file.
    pub file: FileInput,
}

/// xorshift64*: a deterministic shuffle, so entries are not listed in a convenient order.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// The bundle name of version `1.0.i` of package `p`.
pub fn name(p: &str, i: usize) -> String {
    format!("{p}.v1.0.{i}")
}

fn package_blob(out: &mut String, p: &str, default_channel: &str) {
    let _ = writeln!(out, r#"{{"schema":"olm.package","name":"{p}","defaultChannel":"{default_channel}"}}"#);
}

fn bundle_blob(out: &mut String, p: &str, i: usize) {
    let _ = writeln!(
        out,
        r#"{{"schema":"olm.bundle","name":"{n}","package":"{p}","image":"example.com/{p}-bundle:v1.0.{i}","properties":[{{"type":"olm.package","value":{{"packageName":"{p}","version":"1.0.{i}"}}}}]}}"#,
        n = name(p, i)
    );
}

/// An `olm.channel` blob with `entries` (each already a JSON object).
fn channel_blob(out: &mut String, p: &str, channel: &str, entries: &[String]) {
    let _ = write!(out, r#"{{"schema":"olm.channel","package":"{p}","name":"{channel}","entries":["#);
    for (k, e) in entries.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(e);
    }
    out.push_str("]}\n");
}

/// Entry `i` of a replaces chain of package `p` (entry 0 replaces nothing), with an optional
/// skipRange.
fn chain_entry(p: &str, i: usize, skip_range: Option<String>) -> String {
    let mut e = format!(r#"{{"name":"{}""#, name(p, i));
    if i > 0 {
        let _ = write!(e, r#","replaces":"{}""#, name(p, i - 1));
    }
    if let Some(r) = skip_range {
        let _ = write!(e, r#","skipRange":"{r}""#);
    }
    e.push('}');
    e
}

/// A package of `n` bundles `1.0.0` … `1.0.{n-1}` in one channel `stable`, each replacing the
/// previous one; with `skip_ranges`, each entry also has `skipRange: <1.0.i`, covering every
/// earlier version. Entries and bundles are listed in a shuffled order.
fn chain(name_: &'static str, what: String, n: usize, skip_ranges: bool, seed: u64) -> Hostile {
    let p = "chain";
    let mut rng = Rng(seed);
    let mut out = String::new();
    package_blob(&mut out, p, "stable");
    let mut entries: Vec<String> =
        (0..n).map(|i| chain_entry(p, i, (skip_ranges && i > 0).then(|| format!("<1.0.{i}")))).collect();
    rng.shuffle(&mut entries);
    channel_blob(&mut out, p, "stable", &entries);
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    for i in order {
        bundle_blob(&mut out, p, i);
    }
    Hostile {
        name: name_,
        what,
        package: p.into(),
        channel: "stable".into(),
        oldest: name(p, 0),
        file: FileInput::new("hostile/catalog.json", out.into_bytes()),
    }
}

/// Case 1: one channel, a replaces chain of `n` bundles.
pub fn long_chain(n: usize) -> Hostile {
    chain("replaces-chain", format!("one channel, replaces chain of {n} bundles"), n, false, 0x1234_5678)
}

/// Case 2: a chain of `n` bundles where each entry also has a skipRange over all earlier
/// versions (n²/2 skipRange edges if materialised).
pub fn skip_range_chain(n: usize) -> Hostile {
    chain(
        "skiprange-chain",
        format!("{n}-bundle chain, each entry with a skipRange over all earlier versions"),
        n,
        true,
        0x9abc_def0,
    )
}

/// Case 3: `channels` channels sharing the same `bundles` bundles (each channel the same replaces
/// chain).
pub fn many_channels(channels: usize, bundles: usize) -> Hostile {
    let p = "shared";
    let mut out = String::new();
    let channel_name = |c: usize| format!("channel-{c:05}");
    package_blob(&mut out, p, &channel_name(0));
    let entries: Vec<String> = (0..bundles).map(|i| chain_entry(p, i, None)).collect();
    for c in 0..channels {
        channel_blob(&mut out, p, &channel_name(c), &entries);
    }
    for i in 0..bundles {
        bundle_blob(&mut out, p, i);
    }
    Hostile {
        name: "many-channels",
        what: format!("{channels} channels sharing the same {bundles} bundles"),
        package: p.into(),
        channel: channel_name(channels / 2),
        oldest: name(p, 0),
        file: FileInput::new("hostile/catalog.json", out.into_bytes()),
    }
}

/// Case 4: package `cycle`, one channel whose `n` entries replace each other in a cycle, under a
/// head that replaces the last of them; and package `fan`, whose head skips `skipped` other
/// entries (in channel `stable`, each of them a bundle of its own).
pub fn cycle_and_fan(n: usize, skipped: usize) -> Hostile {
    let mut out = String::new();
    let c = "cycle";
    package_blob(&mut out, c, "stable");
    let mut entries: Vec<String> =
        (0..n).map(|i| format!(r#"{{"name":"{}","replaces":"{}"}}"#, name(c, i), name(c, (i + n - 1) % n))).collect();
    entries.push(format!(r#"{{"name":"{}","replaces":"{}"}}"#, name(c, n), name(c, n - 1)));
    channel_blob(&mut out, c, "stable", &entries);
    for i in 0..=n {
        bundle_blob(&mut out, c, i);
    }
    let f = "fan";
    package_blob(&mut out, f, "stable");
    let mut entries: Vec<String> = (0..skipped).map(|i| format!(r#"{{"name":"{}"}}"#, name(f, i))).collect();
    let skips: Vec<String> = (0..skipped).map(|i| format!(r#""{}""#, name(f, i))).collect();
    entries.push(format!(r#"{{"name":"{}","skips":[{}]}}"#, name(f, skipped), skips.join(",")));
    channel_blob(&mut out, f, "stable", &entries);
    for i in 0..=skipped {
        bundle_blob(&mut out, f, i);
    }
    Hostile {
        name: "cycle-and-fan",
        what: format!("a replaces cycle of {n}; one bundle skipping {skipped} others"),
        package: c.into(),
        channel: "stable".into(),
        oldest: name(c, 0),
        file: FileInput::new("hostile/catalog.json", out.into_bytes()),
    }
}

/// Extra case: one channel of `n` entries that nothing connects, so opm's message lists every
/// one of them as a head (capped).
pub fn many_heads(n: usize) -> Hostile {
    let p = "heads";
    let mut out = String::new();
    package_blob(&mut out, p, "stable");
    let entries: Vec<String> = (0..n).map(|i| format!(r#"{{"name":"{}"}}"#, name(p, i))).collect();
    channel_blob(&mut out, p, "stable", &entries);
    for i in 0..n {
        bundle_blob(&mut out, p, i);
    }
    Hostile {
        name: "many-heads",
        what: format!("one channel of {n} unconnected entries (as many heads)"),
        package: p.into(),
        channel: "stable".into(),
        oldest: name(p, 0),
        file: FileInput::new("hostile/catalog.json", out.into_bytes()),
    }
}

/// Extra case: a replaces chain of `n` whose second entry from the head carries the legacy
/// `olm.deprecated` property, so OLM v0 strands every entry below it (`n - 2` stranded-entry
/// warnings, each with the walk's reason).
pub fn blocked_chain(n: usize) -> Hostile {
    let mut h = chain("blocked-chain", format!("a replaces chain of {n} blocked next to its head"), n, false, 0x5151);
    let text = String::from_utf8(h.file.content.to_vec()).expect("utf-8");
    let blocked = format!(r#""version":"1.0.{}"}}}}"#, n - 2);
    let text = text.replace(&blocked, &format!(r#"{blocked},{{"type":"olm.deprecated","value":{{}}}}"#));
    h.file = FileInput::new("hostile/catalog.json", text.into_bytes());
    h
}

/// The four cases at the sizes of issue 15.
pub fn all() -> Vec<Hostile> {
    vec![long_chain(50_000), skip_range_chain(20_000), many_channels(5_000, 50), cycle_and_fan(10_000, 3_000)]
}
