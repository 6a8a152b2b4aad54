//! Why OLM v1 chose no single bundle: [`V1Error`], whose `Display` is operator-controller's
//! message for each case.

use std::fmt;

use crate::gotext::quote as go_quote;

/// Why no single bundle was chosen. `Display` gives operator-controller's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum V1Error {
    /// `desired version range "<range>" is invalid: <reason>` (the reason is
    /// Masterminds' parse error).
    InvalidRange {
        /// The range as given.
        range: String,
        /// Masterminds' error text.
        reason: String,
    },
    /// The installed version is not a valid (version, release):
    /// `error walking catalogs: error finding upgrade edges: failed to get
    /// version and release of installed bundle: <reason>`.
    InstalledVersion(String),
    /// No catalog offers a candidate: `[error upgrading from currently
    /// installed version "<v>": ]no bundles found for package "<p>"[ matching
    /// version "<range>"][ in channels [<c> ...]]`.
    NotFound {
        /// The package.
        package: String,
        /// The version range ("" for none).
        version_range: String,
        /// The channel filter.
        channels: Vec<String>,
        /// The installed version, for an upgrade.
        installed_version: Option<String>,
    },
    /// Several catalogs of the same top priority offer a candidate:
    /// `[error upgrading from currently installed version "<v>": ]found
    /// bundles for package "<p>"[ matching version "<range>"][ in channels
    /// [...]] in multiple catalogs with the same priority [<catalogs>]`.
    Ambiguous {
        /// The package.
        package: String,
        /// The version range ("" for none).
        version_range: String,
        /// The channel filter.
        channels: Vec<String>,
        /// The installed version, for an upgrade.
        installed_version: Option<String>,
        /// Every catalog whose best was kept (lower priorities included),
        /// sorted by name.
        catalogs: Vec<String>,
    },
}

impl fmt::Display for V1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (package, version_range, channels, installed_version, catalogs) = match self {
            V1Error::InvalidRange { range, reason } => {
                return write!(f, "desired version range {} is invalid: {reason}", go_quote(range));
            }
            V1Error::InstalledVersion(reason) => {
                return write!(
                    f,
                    "error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: {reason}"
                );
            }
            V1Error::NotFound { package, version_range, channels, installed_version } => {
                (package, version_range, channels, installed_version, None)
            }
            V1Error::Ambiguous { package, version_range, channels, installed_version, catalogs } => {
                (package, version_range, channels, installed_version, Some(catalogs))
            }
        };
        let mut parts: Vec<String> = Vec::new();
        if let Some(v) = installed_version {
            parts.push(format!("error upgrading from currently installed version {}:", go_quote(v)));
        }
        match catalogs {
            Some(_) => parts.push(format!("found bundles for package {}", go_quote(package))),
            None => parts.push(format!("no bundles found for package {}", go_quote(package))),
        }
        if !version_range.is_empty() {
            parts.push(format!("matching version {}", go_quote(version_range)));
        }
        if !channels.is_empty() {
            parts.push(format!("in channels [{}]", channels.join(" ")));
        }
        if let Some(catalogs) = catalogs.filter(|c| c.len() > 1) {
            parts.push(format!("in multiple catalogs with the same priority [{}]", catalogs.join(" ")));
        }
        f.write_str(parts.join(" ").trim())
    }
}

impl std::error::Error for V1Error {}
