//! The sizes an image reader allows (docs/budgets.md): hostile or broken images end with an
//! [`Error::Budget`](crate::Error::Budget), in bounded time and memory.

use std::fmt;

/// The limits of one image read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budgets {
    /// A manifest or index document (the distribution spec lets registries refuse above 4 MiB).
    pub manifest_bytes: u64,
    /// An image config document.
    pub config_bytes: u64,
    /// A layer decompresses to at most this many times the compressed bytes read so far…
    pub layer_ratio: u64,
    /// …plus this many bytes (a small, very compressible file stays readable).
    pub layer_slack: u64,
    /// A layer's decompressed tar stream, whatever its ratio.
    pub layer_bytes: u64,
    /// The files kept from all layers (the catalog or bundle), together.
    pub extracted_bytes: u64,
    /// Tar entries in one layer.
    pub entries: u64,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            manifest_bytes: 4 << 20,
            config_bytes: 8 << 20,
            layer_ratio: 200,
            layer_slack: 256 << 20,
            layer_bytes: 16 << 30,
            extracted_bytes: 4 << 30,
            entries: 2_000_000,
        }
    }
}

/// A decompressed stream outgrew its budget (carried inside an `io::Error`).
#[derive(Debug)]
pub struct BudgetExceeded {
    /// Bytes decompressed when it stopped.
    pub out: u64,
    /// The ratio, or the absolute limit.
    pub limit: u64,
    /// Whether `limit` is a ratio.
    pub ratio: bool,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ratio {
            write!(
                f,
                "decompressed {} bytes, more than {}× the compressed input (a decompression bomb?)",
                self.out, self.limit
            )
        } else {
            write!(f, "decompressed {} bytes, more than the budget of {} bytes", self.out, self.limit)
        }
    }
}

impl std::error::Error for BudgetExceeded {}
