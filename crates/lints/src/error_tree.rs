//! opm's aggregated model-validation error, rendered exactly as `opm validate` prints it:
//!
//! ```text
//! invalid index:
//! └── invalid package "foo":
//!     └── invalid channel "alpha":
//!         └── channel must contain at least one bundle
//! ```

/// A node of the error tree: a label and its children (nodes or leaf messages).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ErrorTree {
    /// The node's text (`invalid package "foo"`).
    pub label: String,
    /// Its children, in opm's order.
    pub children: Vec<TreeChild>,
}

/// A child of an [`ErrorTree`] node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeChild {
    Node(ErrorTree),
    Leaf(String),
}

impl ErrorTree {
    /// A node labelled `label` with no children yet.
    pub fn new(label: impl Into<String>) -> ErrorTree {
        ErrorTree { label: label.into(), children: Vec::new() }
    }

    /// Whether nothing was found below this node.
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// Add a leaf message.
    pub fn leaf(&mut self, message: impl Into<String>) {
        self.children.push(TreeChild::Leaf(message.into()));
    }

    /// Add a child node if it has any findings.
    pub fn child(&mut self, node: ErrorTree) {
        if !node.is_empty() {
            self.children.push(TreeChild::Node(node));
        }
    }

    /// The text opm prints.
    pub fn render(&self) -> String {
        let mut out = String::new();
        render_node(self, "", &mut out);
        out.trim().to_string()
    }
}

fn render_node(node: &ErrorTree, prefix: &str, out: &mut String) {
    out.push_str(prefix);
    out.push_str(&node.label);
    out.push_str(if node.children.is_empty() { "\n" } else { ":\n" });
    let n = node.children.len();
    for (i, child) in node.children.iter().enumerate() {
        let last = i + 1 == n;
        let p = child_prefix(prefix, last);
        match child {
            TreeChild::Node(c) => render_node(c, &p, out),
            TreeChild::Leaf(m) => {
                out.push_str(&p);
                out.push_str(m);
                out.push('\n');
            }
        }
    }
}

/// The prefix of a child: the parent's last four characters become blanks (or a bar when the
/// parent has later siblings), then the child's own branch.
fn child_prefix(parent: &str, last: bool) -> String {
    let chars: Vec<char> = parent.chars().collect();
    let mut p = String::new();
    if chars.len() >= 4 {
        let head: String = chars[..chars.len() - 4].iter().collect();
        let parent_was_last = chars[chars.len() - 4] == '└';
        p.push_str(&head);
        p.push_str(if parent_was_last { "    " } else { "│   " });
    }
    p.push_str(if last { "└── " } else { "├── " });
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_opm() {
        let mut bundle = ErrorTree::new("invalid bundle \"b\"");
        bundle.leaf("one");
        bundle.leaf("two");
        let mut ch = ErrorTree::new("invalid channel \"alpha\"");
        ch.child(bundle);
        let mut pkg = ErrorTree::new("invalid package \"foo\"");
        pkg.leaf("default channel must be set");
        pkg.child(ch);
        let mut root = ErrorTree::new("invalid index");
        root.child(pkg);
        assert_eq!(
            root.render(),
            "invalid index:\n└── invalid package \"foo\":\n    ├── default channel must be set\n    └── invalid channel \"alpha\":\n        └── invalid bundle \"b\":\n            ├── one\n            └── two"
        );
    }

    #[test]
    fn bars_for_non_last_parents() {
        let mut a = ErrorTree::new("a");
        a.leaf("x");
        let mut b = ErrorTree::new("b");
        b.leaf("y");
        let mut root = ErrorTree::new("root");
        root.child(a);
        root.child(b);
        assert_eq!(root.render(), "root:\n├── a:\n│   └── x\n└── b:\n    └── y");
    }
}
