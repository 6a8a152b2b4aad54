//! saphyr-parser's event stream over a `&str`, as olm-catalog's full YAML path reads it.
//!
//! Why a crate of its own: saphyr's parser is generic over its input, so its code is compiled
//! in the crate that names `Parser<StrInput>`. Naming it only here lets olm-catalog's
//! WebAssembly build compile the whole parser at opt-level `z`
//! (`[profile.wasm.package.olm-yaml-events]`), while the crate that calls it keeps opt-level 3:
//! real catalogs are read by olm-catalog's own fast path, and this parser only reads the
//! documents that path leaves (flow style, anchors, tags, errors). See docs/performance.md,
//! "WebAssembly size".
//!
//! It also reads what go-yaml v2 reads and saphyr does not: lines inside quoted scalars and
//! flow collections indented at any column ([`Relaxed`], [`Events::relaxed`]).
#![warn(missing_docs)]

mod relax;

pub use relax::Relaxed;
pub use saphyr_parser::{Event, Marker, ScalarStyle, ScanError, Span};

/// The events of one YAML text, in order, each with its span.
pub struct Events<'a> {
    parser: saphyr_parser::Parser<'a, saphyr_parser::StrInput<'a>>,
    /// For a padded text: the padding, whose claims are checked as events are read.
    relaxed: Option<(&'a Relaxed, relax::Check<'a>)>,
}

impl<'a> Events<'a> {
    /// The event stream of `text`.
    ///
    /// ```
    /// let mut events = olm_yaml_events::Events::new("a: 1\n");
    /// assert!(matches!(events.next_event(), Some(Ok((olm_yaml_events::Event::StreamStart, _)))));
    /// ```
    #[inline(never)]
    pub fn new(text: &'a str) -> Events<'a> {
        Events { parser: saphyr_parser::Parser::new_from_str(text), relaxed: None }
    }

    /// The event stream of a padded text, its positions (spans and errors) in the original
    /// text. Read to the end of its document, it is the original's as go-yaml v2 reads it when
    /// [`Events::honoured`] says so.
    ///
    /// ```
    /// use olm_yaml_events::{Event, Events, Relaxed};
    /// let relaxed = Relaxed::new("a:\n  b: 'x\n  y'\n").unwrap();
    /// let mut events = Events::relaxed(&relaxed);
    /// let mut values = Vec::new();
    /// while let Some(Ok((event, span))) = events.next_event() {
    ///     if let Event::Scalar(text, ..) = event {
    ///         values.push((text.to_string(), span.start.line(), span.start.col()));
    ///     }
    /// }
    /// assert_eq!(values[2], ("x y".to_string(), 2, 5));
    /// assert!(events.honoured());
    /// ```
    #[inline(never)]
    pub fn relaxed(relaxed: &'a Relaxed) -> Events<'a> {
        Events { relaxed: Some((relaxed, relax::Check::new(relaxed))), ..Events::new(relaxed.text()) }
    }

    /// The next event and its span, a scanner error, or `None` after the end of the stream.
    #[inline(never)]
    #[allow(clippy::should_implement_trait)]
    pub fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), ScanError>> {
        let next = self.parser.next_event();
        match &mut self.relaxed {
            None => next,
            Some((relaxed, check)) => Some(unpad(relaxed, check, next?)),
        }
    }

    /// Whether the events read so far honour what the padding of a [`Relaxed`] text assumed
    /// (always true for a text read as it is).
    pub fn honoured(&self) -> bool {
        self.relaxed.as_ref().is_none_or(|(_, check)| check.honoured())
    }
}

/// An event or error of a relaxed text, checked and placed in the original text.
#[cold]
#[inline(never)]
fn unpad<'a>(
    relaxed: &Relaxed,
    check: &mut relax::Check<'_>,
    next: Result<(Event<'a>, Span), ScanError>,
) -> Result<(Event<'a>, Span), ScanError> {
    match next {
        Ok((event, span)) => {
            check.event(&event, &span);
            Ok((event, Span::new(relaxed.unpad(span.start), relaxed.unpad(span.end))))
        }
        Err(e) => Err(ScanError::new(relaxed.unpad(*e.marker()), e.info().to_string())),
    }
}
