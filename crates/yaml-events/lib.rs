//! saphyr-parser's event stream over a `&str`, as olm-catalog's full YAML path reads it.
//!
//! Why a crate of its own: saphyr's parser is generic over its input, so its code is compiled
//! in the crate that names `Parser<StrInput>`. Naming it only here lets olm-catalog's
//! WebAssembly build compile the whole parser at opt-level `z`
//! (`[profile.wasm.package.olm-yaml-events]`), while the crate that calls it keeps opt-level 3:
//! real catalogs are read by olm-catalog's own fast path, and this parser only reads the
//! documents that path leaves (flow style, anchors, tags, errors). See docs/performance.md,
//! "WebAssembly size".
#![warn(missing_docs)]

pub use saphyr_parser::{Event, Marker, ScalarStyle, ScanError, Span};

/// The events of one YAML text, in order, each with its span.
pub struct Events<'a>(saphyr_parser::Parser<'a, saphyr_parser::StrInput<'a>>);

impl<'a> Events<'a> {
    /// The event stream of `text`.
    ///
    /// ```
    /// let mut events = olm_yaml_events::Events::new("a: 1\n");
    /// assert!(matches!(events.next_event(), Some(Ok((olm_yaml_events::Event::StreamStart, _)))));
    /// ```
    #[inline(never)]
    pub fn new(text: &'a str) -> Events<'a> {
        Events(saphyr_parser::Parser::new_from_str(text))
    }

    /// The next event and its span, a scanner error, or `None` after the end of the stream.
    #[inline(never)]
    #[allow(clippy::should_implement_trait)]
    pub fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), ScanError>> {
        self.0.next_event()
    }
}
