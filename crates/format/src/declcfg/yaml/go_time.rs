//! YAML 1.1 timestamp recognition as go-yaml v2 does it: `parseTimestamp` tries Go's
//! `time.Parse` with four layouts. Only decisive for an explicit `!!timestamp` tag: untagged, a
//! timestamp-looking value is a string either way when decoded into `interface{}`.

/// go-yaml v2 `parseTimestamp`: four digits and `-`, then Go `time.Parse` with one of
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`, `2006-1-2`.
pub(super) fn parse_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let i = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if i != 4 || i == b.len() || b[i] != b'-' {
        return false;
    }
    [Layout::DateTime(b'T'), Layout::DateTime(b't'), Layout::Spaced, Layout::Date].iter().any(|&l| go_time_parse(b, l))
}

/// The layouts go-yaml v2 tries, in its order.
#[derive(Clone, Copy)]
enum Layout {
    /// `2006-1-2<sep>15:4:5.999999999Z07:00`
    DateTime(u8),
    /// `2006-1-2 15:4:5.999999999`
    Spaced,
    /// `2006-1-2`
    Date,
}

/// Go `time` getnum: one or two digits.
fn getnum(v: &[u8]) -> Option<(u32, &[u8])> {
    match v {
        [a, b, rest @ ..] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some(((a - b'0') as u32 * 10 + (b - b'0') as u32, rest))
        }
        [a, rest @ ..] if a.is_ascii_digit() => Some(((a - b'0') as u32, rest)),
        _ => None,
    }
}

/// The byte `c`, then the rest.
fn lit(v: &[u8], c: u8) -> Option<&[u8]> {
    match v {
        [x, rest @ ..] if *x == c => Some(rest),
        _ => None,
    }
}

/// Whether Go's `time.Parse(layout, v)` succeeds.
fn go_time_parse(v: &[u8], layout: Layout) -> bool {
    parse_layout(v, layout).is_some()
}

/// Go `time.Parse` for one of the layouts; `None` on any parse or range error.
fn parse_layout(v: &[u8], layout: Layout) -> Option<()> {
    // 2006: exactly four characters, checked digits by the caller.
    let year: i64 = std::str::from_utf8(v.get(..4)?).ok()?.parse().ok()?;
    let v = lit(&v[4..], b'-')?;
    let (month, v) = getnum(v)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let v = lit(v, b'-')?;
    let (day, mut v) = getnum(v)?;
    if let Layout::DateTime(_) | Layout::Spaced = layout {
        v = clock(v, layout)?;
    }
    if !v.is_empty() {
        return None; // extra text
    }
    if day < 1 || day > days_in(month, year) {
        return None;
    }
    Some(())
}

/// The part of a date-time layout after the date: the separator, `15:4:5.999999999`, and for
/// [`Layout::DateTime`] the zone `Z07:00`. Returns what follows.
fn clock(v: &[u8], layout: Layout) -> Option<&[u8]> {
    let v = match layout {
        Layout::DateTime(sep) => lit(v, sep)?,
        _ => {
            // A layout space matches one or more spaces (or the end of the value).
            if !v.is_empty() && v[0] != b' ' {
                return None;
            }
            let n = v.iter().take_while(|&&c| c == b' ').count();
            &v[n..]
        }
    };
    let (hour, w) = getnum(v)?;
    if hour >= 24 {
        return None;
    }
    let w = lit(w, b':')?;
    let (min, w) = getnum(w)?;
    if min >= 60 {
        return None;
    }
    let w = lit(w, b':')?;
    let (sec, mut w) = getnum(w)?;
    if sec >= 60 {
        return None;
    }
    // .999999999: optional fraction, any number of digits, `.` or `,`.
    if w.len() >= 2 && (w[0] == b'.' || w[0] == b',') && w[1].is_ascii_digit() {
        let n = 1 + w[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        w = &w[n..];
    }
    match layout {
        Layout::DateTime(_) => zone(w),
        _ => Some(w),
    }
}

/// Go's `Z07:00`: `Z`, or a sign and `hh:mm` (hours up to 24, minutes up to 60). Returns what
/// follows.
fn zone(w: &[u8]) -> Option<&[u8]> {
    if let Some(rest) = lit(w, b'Z') {
        return Some(rest);
    }
    if w.len() < 6 || w[3] != b':' {
        return None;
    }
    let sign = w[0];
    let hh = &w[1..3];
    let mm = &w[4..6];
    if !hh.iter().all(u8::is_ascii_digit) || !mm.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let hr = (hh[0] - b'0') as u32 * 10 + (hh[1] - b'0') as u32;
    let mi = (mm[0] - b'0') as u32 * 10 + (mm[1] - b'0') as u32;
    if hr > 24 || mi > 60 || (sign != b'+' && sign != b'-') {
        return None;
    }
    Some(&w[6..])
}

/// Days in `month` of `year` (proleptic Gregorian).
fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_parser() {
        for s in [
            "2001-12-14",
            "2001-1-2",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14T21:59:43.10+05:30",
            "2001-12-14T21:59:43Z",
            "2001-12-14T1:2:3Z",
            "2001-12-14 21:59:43.10",
            "2001-12-14   21:59:43",
            "2001-12-14 21:59:43,5",
            "2000-02-29",
            "2001-12-14T21:59:43.1234567891234Z",
            "2001-12-14T21:59:43+24:60",
        ] {
            assert!(parse_timestamp(s), "{s:?}");
        }
        for s in [
            "2001-12-14 21:59:43.10 -5",
            "2001-13-01",
            "2001-00-01",
            "2001-02-29",
            "1900-02-29",
            "2001-12-32",
            "2001-12-0",
            "2001-12-14T24:00:00Z",
            "2001-12-14T21:60:00Z",
            "2001-12-14T21:59:60Z",
            "2001-12-14T21:59:43",
            "2001-12-14T21:59:43+0500",
            "2001-12-14T21:59:43+25:00",
            "2001-12-14 ",
            "2001-12-14x",
            "20011-12-14",
            "201-12-14",
            "2001-123-14",
            "2001-12-14T21:59:43.Z",
            "2001-12-14 21:59",
            "2001-12-14T21:59:43*05:00",
        ] {
            assert!(!parse_timestamp(s), "{s:?}");
        }
    }
}
