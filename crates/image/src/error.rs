//! What can go wrong reading an image: each error says which image part and why.

use std::fmt;

/// An image that cannot be read (nothing of a part that failed is used).
#[derive(Debug)]
pub enum Error {
    /// Reading the transport (a file, an archive, a network response) failed.
    Io { what: String, message: String },
    /// A part is missing (`index.json`, a blob, `manifest.json`).
    Missing { what: String },
    /// A part does not parse as the format it should have.
    Malformed { what: String, message: String },
    /// A blob's content does not have the digest it is named by.
    DigestMismatch { what: String, expected: String, actual: String },
    /// A digest string is not `sha256:` and 64 lowercase hex digits (or `sha512:` and 128).
    BadDigest { digest: String },
    /// A part is larger than its budget allows (a decompression bomb, a huge manifest).
    Budget { what: String, message: String },
    /// No manifest in the layout or archive matches the tag asked for.
    NoSuchTag { tag: String, known: Vec<String> },
    /// An image index has no manifest for the platform asked for.
    NoSuchPlatform { platform: String, known: Vec<String> },
    /// A media type this reader does not know (an artifact, a foreign layer).
    UnsupportedMediaType { what: String, media_type: String },
    /// The image is a sqlite index image, which current opm no longer reads.
    SqliteIndex { database: String },
    /// The image has neither a catalog nor a bundle label.
    NotAnOperatorImage { labels: Vec<String> },
}

impl Error {
    pub(crate) fn io(what: impl Into<String>, e: impl fmt::Display) -> Error {
        Error::Io { what: what.into(), message: e.to_string() }
    }

    /// An I/O error while reading `what`, a budget's refusal when that is what it carries.
    pub(crate) fn reading(what: impl Into<String>, e: std::io::Error) -> Error {
        match e.get_ref().and_then(|inner| inner.downcast_ref::<crate::budgets::BudgetExceeded>()) {
            Some(over) => Error::Budget { what: what.into(), message: over.to_string() },
            None => Error::io(what, e),
        }
    }

    pub(crate) fn malformed(what: impl Into<String>, e: impl fmt::Display) -> Error {
        Error::Malformed { what: what.into(), message: e.to_string() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { what, message } => write!(f, "reading {what}: {message}"),
            Error::Missing { what } => write!(f, "{what} is missing"),
            Error::Malformed { what, message } => write!(f, "{what} is malformed: {message}"),
            Error::DigestMismatch { what, expected, actual } => {
                write!(f, "{what}: digest mismatch: expected {expected}, got {actual} (the content was not used)")
            }
            Error::BadDigest { digest } => write!(f, "invalid digest {digest:?}"),
            Error::Budget { what, message } => write!(f, "{what}: {message} (docs/budgets.md)"),
            Error::NoSuchTag { tag, known } => {
                write!(f, "no image tagged {tag:?} (tags: {})", list(known))
            }
            Error::NoSuchPlatform { platform, known } => {
                write!(f, "the image index has no manifest for platform {platform} (platforms: {})", list(known))
            }
            Error::UnsupportedMediaType { what, media_type } => {
                write!(f, "{what} has unsupported media type {media_type:?}")
            }
            Error::SqliteIndex { database } => write!(
                f,
                "this is a sqlite-based index image (label operators.operatorframework.io.index.database.v1={database}): \
                 sqlite-based index images are no longer supported upstream; migrate to a File-Based Catalog with an \
                 opm release that still reads them (`opm migrate IMAGE ./catalog`, or `opm render IMAGE -o yaml`), \
                 then build a catalog image from the result (`opm generate dockerfile ./catalog`)"
            ),
            Error::NotAnOperatorImage { labels } => write!(
                f,
                "neither a catalog image (label operators.operatorframework.io.index.configs.v1) nor a bundle image \
                 (label operators.operatorframework.io.bundle.manifests.v1); its labels: {}",
                list(labels)
            ),
        }
    }
}

impl std::error::Error for Error {}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}
