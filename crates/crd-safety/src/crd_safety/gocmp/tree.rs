//! go-cmp's comparison of two Go values as a tree of nodes, each with the counts its reporter
//! decides by: leaves that differ (`num_diff`), descendants (`num_children`) and height
//! (`max_depth`). A pointer, slice or map that is nil on one side only is a leaf; slices are
//! aligned by go-cmp's edit script (`edit_script`, searching forward first, as go-cmp does when
//! deterministic), maps by their sorted keys, structs field by field.

use super::value::Gv;

/// A record's key: a struct field, a map key, or none (a slice element).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    None,
    Field(&'static str),
    Map(String),
}

/// One compared pair (either side may be missing: an element or entry on one side only).
#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub x: Option<&'a Gv>,
    pub y: Option<&'a Gv>,
    pub num_same: usize,
    pub num_diff: usize,
    pub num_children: usize,
    pub max_depth: usize,
    /// Fields, elements or entries.
    pub records: Vec<(Key, Node<'a>)>,
    /// A pointer's target.
    pub value: Option<Box<Node<'a>>>,
}

impl<'a> Node<'a> {
    fn leaf(x: Option<&'a Gv>, y: Option<&'a Gv>, equal: bool) -> Node<'a> {
        Node {
            x,
            y,
            num_same: usize::from(equal),
            num_diff: usize::from(!equal),
            num_children: 0,
            max_depth: 0,
            records: Vec::new(),
            value: None,
        }
    }

    fn branch(x: &'a Gv, y: &'a Gv, records: Vec<(Key, Node<'a>)>, value: Option<Box<Node<'a>>>) -> Node<'a> {
        let mut n =
            Node { x: Some(x), y: Some(y), num_same: 0, num_diff: 0, num_children: 0, max_depth: 0, records, value };
        let children: Vec<&Node> = n.records.iter().map(|(_, c)| c).chain(n.value.as_deref()).collect();
        let (mut same, mut diff, mut count, mut depth) = (0, 0, 0, 0);
        for c in children {
            same += c.num_same;
            diff += c.num_diff;
            count += c.num_children + 1;
            depth = depth.max(c.max_depth + 1);
        }
        (n.num_same, n.num_diff, n.num_children, n.max_depth) = (same, diff, count, depth);
        n
    }
}

/// Compare two values as go-cmp does.
pub(crate) fn compare<'a>(x: Option<&'a Gv>, y: Option<&'a Gv>) -> Node<'a> {
    let (Some(vx), Some(vy)) = (x, y) else { return Node::leaf(x, y, x.is_none() && y.is_none()) };
    match (vx, vy) {
        (Gv::Ptr(px, _), Gv::Ptr(py, _)) => match (px, py) {
            (Some(a), Some(b)) => Node::branch(vx, vy, Vec::new(), Some(Box::new(compare(Some(a), Some(b))))),
            _ => Node::leaf(x, y, px.is_none() && py.is_none()),
        },
        (Gv::Slice(_, sx), Gv::Slice(_, sy)) => match (sx, sy) {
            (Some(a), Some(b)) => Node::branch(vx, vy, slice_records(a, b), None),
            _ => Node::leaf(x, y, sx.is_none() && sy.is_none()),
        },
        (Gv::Map(_, mx), Gv::Map(_, my)) => match (mx, my) {
            (Some(a), Some(b)) => Node::branch(vx, vy, map_records(a, b), None),
            _ => Node::leaf(x, y, mx.is_none() && my.is_none()),
        },
        (Gv::Struct(_, fx), Gv::Struct(_, fy)) => {
            let records =
                fx.iter().zip(fy).map(|((k, a), (_, b))| (Key::Field(k), compare(Some(a), Some(b)))).collect();
            Node::branch(vx, vy, records, None)
        }
        _ => Node::leaf(x, y, vx == vy),
    }
}

fn map_records<'a>(a: &'a [(String, Gv)], b: &'a [(String, Gv)]) -> Vec<(Key, Node<'a>)> {
    let mut keys: Vec<&str> = a.iter().chain(b).map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    let get = |m: &'a [(String, Gv)], k: &str| m.iter().find(|(mk, _)| mk == k).map(|(_, v)| v);
    keys.into_iter().map(|k| (Key::Map(k.to_string()), compare(get(a, k), get(b, k)))).collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Identity,
    UniqueX,
    UniqueY,
    Modified,
}

fn slice_records<'a>(a: &'a [Gv], b: &'a [Gv]) -> Vec<(Key, Node<'a>)> {
    let script = edit_script(a.len(), b.len(), &|i, j| {
        let n = compare(Some(&a[i]), Some(&b[j]));
        (n.num_same, n.num_diff)
    });
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(script.len());
    for e in script {
        let node = match e {
            Edit::UniqueX => compare(Some(&a[i]), None),
            Edit::UniqueY => compare(None, Some(&b[j])),
            Edit::Identity | Edit::Modified => compare(Some(&a[i]), Some(&b[j])),
        };
        i += usize::from(e != Edit::UniqueY);
        j += usize::from(e != Edit::UniqueX);
        out.push((Key::None, node));
    }
    out
}

/// The bidirectional search of go-cmp's `diff.Difference` (forward first), connecting the two
/// paths with Identity, Modified (similar: same + 1 >= diff), UniqueX and UniqueY steps.
fn edit_script(nx: usize, ny: usize, eq: &dyn Fn(usize, usize) -> (usize, usize)) -> Vec<Edit> {
    let (nx, ny) = (nx as i64, ny as i64);
    let equal = |i: i64, j: i64| eq(i as usize, j as usize).1 == 0;
    let mut fwd = Path { dir: 1, x: 0, y: 0, es: Vec::new() };
    let mut rev = Path { dir: -1, x: nx, y: ny, es: Vec::new() };
    let (mut ff, mut rf) = ((0i64, 0i64), (nx, ny));
    let mut budget = 4 * (nx + ny);
    let mut forward = true;
    loop {
        if ff.0 >= rf.0 || ff.1 >= rf.1 || budget == 0 {
            break;
        }
        let (mut stop1, mut stop2, mut i) = (false, false, 0i64);
        while !(stop1 && stop2) && budget > 0 {
            let z = zigzag(i);
            i += 1;
            if forward {
                let p = (ff.0 + z, ff.1 - z);
                if p.0 >= rev.x || p.1 < fwd.y {
                    stop1 = true;
                } else if p.1 >= rev.y || p.0 < fwd.x {
                    stop2 = true;
                } else if equal(p.0, p.1) {
                    fwd.connect(p, eq);
                    fwd.push(Edit::Identity);
                    while fwd.x < rev.x && fwd.y < rev.y && equal(fwd.x, fwd.y) {
                        fwd.push(Edit::Identity);
                    }
                    ff = (fwd.x, fwd.y);
                    (stop1, stop2) = (true, true);
                } else {
                    budget -= 1;
                }
            } else {
                let p = (rf.0 - z, rf.1 + z);
                if fwd.x >= p.0 || rev.y < p.1 {
                    stop1 = true;
                } else if fwd.y >= p.1 || rev.x < p.0 {
                    stop2 = true;
                } else if equal(p.0 - 1, p.1 - 1) {
                    rev.connect(p, eq);
                    rev.push(Edit::Identity);
                    while fwd.x < rev.x && fwd.y < rev.y && equal(rev.x - 1, rev.y - 1) {
                        rev.push(Edit::Identity);
                    }
                    rf = (rev.x, rev.y);
                    (stop1, stop2) = (true, true);
                } else {
                    budget -= 1;
                }
            }
        }
        if forward {
            if rev.x - ff.0 >= rev.y - ff.1 {
                ff.0 += 1;
            } else {
                ff.1 += 1;
            }
        } else if rf.0 - fwd.x >= rf.1 - fwd.y {
            rf.0 -= 1;
        } else {
            rf.1 -= 1;
        }
        forward = !forward;
    }
    fwd.connect((rev.x, rev.y), eq);
    fwd.es.extend(rev.es.iter().rev());
    fwd.es
}

struct Path {
    dir: i64,
    x: i64,
    y: i64,
    es: Vec<Edit>,
}

impl Path {
    fn push(&mut self, e: Edit) {
        self.es.push(e);
        match e {
            Edit::Identity | Edit::Modified => (self.x, self.y) = (self.x + self.dir, self.y + self.dir),
            Edit::UniqueX => self.x += self.dir,
            Edit::UniqueY => self.y += self.dir,
        }
    }

    fn connect(&mut self, dst: (i64, i64), eq: &dyn Fn(usize, usize) -> (usize, usize)) {
        let step = |same: usize, diff: usize, x_first: bool| {
            if diff == 0 {
                Edit::Identity
            } else if same + 1 >= diff {
                Edit::Modified
            } else if x_first {
                Edit::UniqueX
            } else {
                Edit::UniqueY
            }
        };
        if self.dir > 0 {
            while dst.0 > self.x && dst.1 > self.y {
                let (s, d) = eq(self.x as usize, self.y as usize);
                self.push(step(s, d, dst.0 - self.x >= dst.1 - self.y));
            }
            while dst.0 > self.x {
                self.push(Edit::UniqueX);
            }
            while dst.1 > self.y {
                self.push(Edit::UniqueY);
            }
        } else {
            while self.x > dst.0 && self.y > dst.1 {
                let (s, d) = eq(self.x as usize - 1, self.y as usize - 1);
                self.push(step(s, d, self.y - dst.1 < self.x - dst.0));
            }
            while self.x > dst.0 {
                self.push(Edit::UniqueX);
            }
            while self.y > dst.1 {
                self.push(Edit::UniqueY);
            }
        }
    }
}

fn zigzag(x: i64) -> i64 {
    if x & 1 != 0 {
        (!x) >> 1
    } else {
        x >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(a: &[&str], b: &[&str]) -> Vec<Edit> {
        edit_script(a.len(), b.len(), &|i, j| if a[i] == b[j] { (1, 0) } else { (0, 1) })
    }

    #[test]
    fn an_insertion_in_the_middle_is_found() {
        use Edit::*;
        assert_eq!(script(&["a", "b", "c"], &["a", "x", "b", "c"]), [Identity, UniqueY, Identity, Identity]);
    }

    #[test]
    fn differing_scalars_are_similar_and_pair_as_modified() {
        assert_eq!(script(&["a"], &["b"]), [Edit::Modified]);
    }
}
