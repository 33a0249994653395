//! Model groups inside an element's content (XML Schema Part 1 §3.8): an `xs:choice` read into a Rust
//! enum and an `xs:sequence` read into a struct, occurring once, optionally or repeatedly among the
//! children of a parent element.
//!
//! A group has no element of its own: its occurrences are runs of consecutive child elements of the
//! parent. The derives implement both traits: `#[derive(ToXml, FromXml)]` on an enum whose variants
//! each hold one value (a choice: element variants and `#[xml(group)]` variants), and on a struct with
//! `#[xml(sequence)]` (its elements read by position). A parent holds a group in a field marked
//! `#[xml(group)]`, typed `G`, `Option<G>` or `Vec<G>` (a repeated group, read in document order).
//!
//! Reading is a small state machine driven by the parent's loop over its children: a child that
//! [`continues`](FromXmlGroup::continues) the open occurrence is added to it
//! ([`extend`](FromXmlGroup::extend)); otherwise a child that [`starts`](FromXmlGroup::starts) an
//! occurrence closes the open one ([`finish`](FromXmlGroup::finish)) and
//! [`begin`](FromXmlGroup::begin)s the next. No input makes these panic: a child no group takes is the
//! parent's unknown element, a group missing a required element is a "missing element" error.

use crate::error::{DecodeError, EncodeError};
use crate::xml::{StartTag, XmlReader, XmlWriter};

/// A model group written as the run of child elements it stands for (XML Schema Part 1 §3.8).
pub trait ToXmlGroup {
    /// Writes the group's elements, in order, into the element `w` has open (no wrapper element).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if a value cannot be written.
    fn write_group(&self, w: &mut XmlWriter) -> Result<(), EncodeError>;
}

/// A model group read from a run of consecutive child elements (XML Schema Part 1 §3.8).
///
/// Every method taking a `child` is called right after [`XmlReader::next_child`] returned it, before
/// its content is read (namespace scope is the child's).
pub trait FromXmlGroup: Sized {
    /// An occurrence being read.
    type Partial;

    /// Whether every occurrence is a fixed run of elements that each occur exactly once (a
    /// sequence of required single elements, a choice of single elements): the document then
    /// shows where each occurrence of a repeated group starts, and its minOccurs can be counted.
    /// Otherwise XML does not mark them (XML Schema Part 1 §3.9.4: `(a*)` twice holds
    /// `<a/><a/><a/>`, which the reader takes as one occurrence), and a repeated group of it
    /// requires only its first occurrence. Default `false`.
    const FIXED_RUN: bool = false;

    /// Whether `child` can be the first element of an occurrence.
    fn starts<'i>(r: &XmlReader<'i>, child: &StartTag<'i>) -> bool;

    /// Whether `child` belongs to the open occurrence `p` (a later element of a sequence, another
    /// item of a repeated element).
    fn continues<'i>(p: &Self::Partial, r: &XmlReader<'i>, child: &StartTag<'i>) -> bool;

    /// [`starts`](Self::starts) without `xs:any` wildcards: whether `child` starts an occurrence by
    /// its name. A reader tries named matches before wildcards, so a wildcard only takes what no
    /// named element (of this group or the ones beside it) takes.
    fn starts_named<'i>(r: &XmlReader<'i>, child: &StartTag<'i>) -> bool {
        Self::starts(r, child)
    }

    /// [`continues`](Self::continues) without `xs:any` wildcards.
    fn continues_named<'i>(p: &Self::Partial, r: &XmlReader<'i>, child: &StartTag<'i>) -> bool {
        Self::continues(p, r, child)
    }

    /// Opens an occurrence with `child`, which [`starts`](Self::starts) accepted, reading it.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for content that does not match (or a `child` no alternative takes).
    fn begin<'i>(r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<Self::Partial, DecodeError>;

    /// Reads `child`, which [`continues`](Self::continues) accepted, into the open occurrence.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for content that does not match (or a `child` the occurrence does not take).
    fn extend<'i>(
        p: &mut Self::Partial,
        r: &mut XmlReader<'i>,
        child: StartTag<'i>,
    ) -> Result<(), DecodeError>;

    /// Closes the occurrence: the value, once every required element was seen.
    ///
    /// # Errors
    ///
    /// A missing required element, located at `parent` (the element whose content holds the group).
    fn finish<'i>(
        p: Self::Partial,
        r: &XmlReader<'i>,
        parent: &StartTag<'i>,
    ) -> Result<Self, DecodeError>;
}
