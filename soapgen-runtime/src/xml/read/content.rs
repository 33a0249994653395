//! The element content of a derived struct (XML Schema Part 1 §3.4 complexType with a content
//! model of element particles, §3.9) read by one shared, non-generic loop: the struct describes
//! its particles as data ([`Particle`]) and hands one [`Slot`] per field; the loop matches each
//! child to a particle by expanded name, checks its occurrences, and lets the slot read it.
//!
//! What each derived reader used to expand inline (name matching, duplicate and occurrence
//! checks, the errors naming the expected elements) is compiled once here; per field a type
//! costs a slot, and per distinct field type one [`Slot`] implementation the whole crate shares.

use std::marker::PhantomData;

use super::{StartTag, XmlReader};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::types::{Nillable, OptionalNillable};
use crate::xml::{FromXml, FromXmlText};

/// One element particle of a struct's content (XML Schema Part 1 §3.9): the element's expanded
/// name and how it relates to the other particles. Built by the derives as constant data; the
/// occurrences are the slots' to check ([`Slot::take`] refuses a second single occurrence) and
/// `minOccurs` the derived code's, after [`read_content`].
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Particle {
    /// The element's namespace URI (`""`: no namespace).
    pub namespace: &'static str,
    /// The element's local name.
    pub local: &'static str,
    /// Whether another particle of the same struct has the same name: the child goes to the
    /// first of them with room (§3.9.4), found by a scan in declaration order.
    pub shared: bool,
    /// Whether a later particle can take this name when this one is full (a later particle of
    /// the same name, or a later wildcard): a full single particle then passes the child on
    /// instead of refusing it as a duplicate.
    pub yields: bool,
}

impl Particle {
    /// The particle of the element `local` in `namespace`; `shared` and `yields` as the fields
    /// say. A `const fn`: the derives build their particles as constants.
    pub const fn new(
        namespace: &'static str,
        local: &'static str,
        shared: bool,
        yields: bool,
    ) -> Self {
        Particle {
            namespace,
            local,
            shared,
            yields,
        }
    }
}

/// A field's storage while its struct's content is read: takes one occurrence of its element at
/// a time. Implemented for each occurrence shape ([`Required`], [`Optional`], [`Repeated`],
/// [`NillableOne`], [`Tristate`], [`RepeatedNillable`], [`Wildcard`], [`Wildcards`]).
pub trait Slot<'i> {
    /// Reads the element whose start tag `child` was just read, through its end tag.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::DuplicateElement`] when the slot holds a single occurrence already
    /// ([`DecodeErrorKind::UnexpectedElement`] for a wildcard); the element's own
    /// [`DecodeError`]s (with its path).
    fn take(&mut self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<(), DecodeError>;

    /// Whether the slot holds a single occurrence and cannot take another.
    fn is_full(&self) -> bool;
}

/// How one occurrence of an element's value is read: as its type ([`Element`]), or as a simple
/// type whose declaration gives a default for empty content ([`Or`]). The `xsi:nil` rules
/// around it are the slot's (XML Schema Part 1 §3.3.4 clause 3).
pub trait ReadAs<'i, T> {
    /// Whether the type keeps a nil element itself ([`FromXml::NIL_CONTENT`]).
    const NIL_CONTENT: bool;

    /// Reads the value of the element whose start tag `child` was just read, through its end
    /// tag.
    ///
    /// # Errors
    ///
    /// The element's own [`DecodeError`]s.
    fn value(&self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<T, DecodeError>;
}

/// Reads an occurrence with the type's own [`FromXml`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Element;

impl<'i, T: FromXml> ReadAs<'i, T> for Element {
    const NIL_CONTENT: bool = T::NIL_CONTENT;

    #[inline]
    fn value(&self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<T, DecodeError> {
        T::read_xml(r, child)
    }
}

/// Reads an occurrence of a simple type whose element declaration gives a default or fixed
/// value: empty content reads as that value (XML Schema Part 1 §3.3.4 item 5.1).
#[derive(Debug, Clone, Copy)]
pub struct Or(pub &'static str);

impl<'i, T: FromXmlText> ReadAs<'i, T> for Or {
    const NIL_CONTENT: bool = false;

    #[inline]
    fn value(&self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<T, DecodeError> {
        r.read_simple_or(&child, self.0)
    }
}

/// `match` in place of `?`: no `Try` impls instantiated per type in unoptimized builds.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

/// What the `xsi:nil` of a child means to a slot (XML Schema Part 1 §3.3.4 clause 3, §2.6.2).
/// Decided without the field's type.
enum Nil {
    /// Not nil: read the value.
    No,
    /// Nil and done with (skipped, or read as absent where the leniency allows it).
    Done,
    /// Nil with attributes of its own: [`FromXml::read_nil`] decides.
    WithAttributes,
}

/// The nil rule of a single or repeated non-nillable element: nil is an error unless the type
/// keeps it (`nil_content`), or, for an `optional` one, read as absent under
/// [`Leniency::nil_on_non_nillable`](crate::xml::Leniency).
#[inline(always)]
fn nil_not_allowed<'i>(
    r: &mut XmlReader<'i>,
    child: &StartTag<'i>,
    nil_content: bool,
    optional: bool,
) -> Result<Nil, DecodeError> {
    // Most elements carry no attribute: decided here, inline.
    if nil_content || child.content.len() == child.name_len {
        return Ok(Nil::No);
    }
    nil_attribute(r, child, optional)
}

/// [`nil_not_allowed`] for an element with attributes.
fn nil_attribute<'i>(
    r: &mut XmlReader<'i>,
    child: &StartTag<'i>,
    optional: bool,
) -> Result<Nil, DecodeError> {
    if !tri!(r.is_nil(child)) {
        return Ok(Nil::No);
    }
    if !optional {
        return Err(r.error_at(DecodeErrorKind::UnexpectedNil, child.offset()));
    }
    tri!(r.nil_on_non_nillable(child));
    Ok(Nil::Done)
}

/// The nil rule of a nillable element: plain nil skipped, nil with attributes left to the type.
fn nil_allowed<'i>(r: &mut XmlReader<'i>, child: &StartTag<'i>) -> Result<Nil, DecodeError> {
    if !tri!(r.is_nil(child)) {
        return Ok(Nil::No);
    }
    if tri!(r.first_attribute_of(child, &[], true)).is_none() {
        tri!(r.skip_element());
        return Ok(Nil::Done);
    }
    Ok(Nil::WithAttributes)
}

/// One occurrence of a nillable element, kept as `Nillable<S>`.
#[inline]
fn nillable<'i, T: FromXml, S: From<T>, R: ReadAs<'i, T>>(
    read: &R,
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
) -> Result<Nillable<S>, DecodeError> {
    Ok(match tri!(nil_allowed(r, &child)) {
        Nil::No => Nillable::Value(S::from(tri!(read.value(r, child)))),
        Nil::Done => Nillable::Nil,
        Nil::WithAttributes => match tri!(T::read_nil(r, child)) {
            Some(v) => Nillable::Value(S::from(v)),
            None => Nillable::Nil,
        },
    })
}

/// Defines a slot: a value of type `$store` (`S` being what a read `T` is kept as, `T` itself or
/// `Box<T>`), read by `$take`, full when `$full`.
macro_rules! slot {
    (
        $(#[$doc:meta])*
        $name:ident, $store:ty, $empty:expr,
        |$s:ident, $r:ident, $c:ident| $take:block,
        |$f:ident| $full:expr
    ) => {
        $(#[$doc])*
        pub struct $name<T, S, R> {
            /// What was read so far.
            pub value: $store,
            read: R,
            _t: PhantomData<fn() -> T>,
        }

        impl<T, S, R> $name<T, S, R> {
            /// An empty slot reading with `read`.
            #[inline]
            pub fn new(read: R) -> Self {
                Self { value: $empty, read, _t: PhantomData }
            }
        }

        impl<T, R> $name<T, T, R> {
            /// An empty slot keeping what it reads as read (not boxed), reading with `read`.
            #[inline]
            pub fn same(read: R) -> Self {
                Self::new(read)
            }
        }

        impl<'i, T: FromXml, S: From<T>, R: ReadAs<'i, T>> Slot<'i> for $name<T, S, R> {
            fn take(&mut self, $r: &mut XmlReader<'i>, $c: StartTag<'i>) -> Result<(), DecodeError> {
                if self.is_full() {
                    return Err($r.duplicate(&$c));
                }
                let $s = self;
                $take
                Ok(())
            }
            #[inline]
            fn is_full(&self) -> bool {
                let $f = &self.value;
                $full
            }
        }
    };
}

slot!(
    /// A required single element (`minOccurs="1" maxOccurs="1"`): nil is an error.
    Required, Option<S>, None,
    |s, r, c| {
        tri!(nil_not_allowed(r, &c, R::NIL_CONTENT, false));
        s.value = Some(S::from(tri!(s.read.value(r, c))));
    },
    |v| v.is_some()
);
slot!(
    /// An optional single element (`minOccurs="0"`): nil reads as absent where the reader's
    /// leniency allows it.
    Optional, Option<S>, None,
    |s, r, c| {
        s.value = match tri!(nil_not_allowed(r, &c, R::NIL_CONTENT, true)) {
            Nil::No => Some(S::from(tri!(s.read.value(r, c)))),
            _ => None,
        };
    },
    |v| v.is_some()
);
slot!(
    /// A repeated element (`maxOccurs` > 1).
    Repeated, Vec<S>, Vec::new(),
    |s, r, c| {
        tri!(nil_not_allowed(r, &c, R::NIL_CONTENT, false));
        let v = S::from(tri!(s.read.value(r, c)));
        s.value.push(v);
    },
    |_v| false
);
slot!(
    /// A single nillable element, required or optional (XML Schema Part 1 §2.6.2).
    NillableOne, Option<Nillable<S>>, None,
    |s, r, c| { s.value = Some(tri!(nillable(&s.read, r, c))); },
    |v| v.is_some()
);
slot!(
    /// An optional nillable element kept as absent, nil or a value.
    Tristate, OptionalNillable<S>, OptionalNillable::Absent,
    |s, r, c| { s.value = OptionalNillable::from(tri!(nillable(&s.read, r, c))); },
    |v| !v.is_absent()
);
slot!(
    /// A repeated nillable element.
    RepeatedNillable, Vec<Nillable<S>>, Vec::new(),
    |s, r, c| {
        let v = tri!(nillable(&s.read, r, c));
        s.value.push(v);
    },
    |_v| false
);

/// A single wildcard (`xs:any`, XML Schema Part 1 §3.10): the one child no particle takes by
/// name, read as `T` (usually [`AnyXml`](crate::types::AnyXml)).
pub struct Wildcard<T> {
    /// What was read.
    pub value: Option<T>,
}

impl<T> Default for Wildcard<T> {
    fn default() -> Self {
        Self { value: None }
    }
}

impl<'i, T: FromXml> Slot<'i> for Wildcard<T> {
    fn take(&mut self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<(), DecodeError> {
        if self.value.is_some() {
            return Err(r.unexpected(&child));
        }
        self.value = Some(tri!(T::read_xml(r, child)));
        Ok(())
    }
    fn is_full(&self) -> bool {
        self.value.is_some()
    }
}

/// A repeated wildcard: every child no particle takes by name.
pub struct Wildcards<T> {
    /// What was read, in document order.
    pub value: Vec<T>,
}

impl<T> Default for Wildcards<T> {
    fn default() -> Self {
        Self { value: Vec::new() }
    }
}

impl<'i, T: FromXml> Slot<'i> for Wildcards<T> {
    fn take(&mut self, r: &mut XmlReader<'i>, child: StartTag<'i>) -> Result<(), DecodeError> {
        let v = tri!(T::read_xml(r, child));
        self.value.push(v);
        Ok(())
    }
    fn is_full(&self) -> bool {
        false
    }
}

/// Reads the children of the element whose start tag was just read into `slots`, one per
/// particle of `particles` in the same order (particles without a slot are ignored), and children no particle takes into `any` (a wildcard) or,
/// without one, refuses them ([`XmlReader::unknown_element_in`], which may skip them under
/// [`Leniency::unknown_elements`](crate::xml::Leniency)). A child goes to the first particle of
/// its name with room (XML Schema Part 1 §3.9.4). `minOccurs` is left to the caller.
///
/// # Errors
///
/// [`DecodeErrorKind::DuplicateElement`] for a second occurrence of a single element,
/// [`DecodeErrorKind::UnexpectedElement`] for a child nothing takes, and the children's own
/// errors.
pub fn read_content<'i>(
    r: &mut XmlReader<'i>,
    particles: &[Particle],
    slots: &mut [&mut dyn Slot<'i>],
    mut any: Option<&mut dyn Slot<'i>>,
) -> Result<(), DecodeError> {
    debug_assert_eq!(particles.len(), slots.len());
    let particles = &particles[..particles.len().min(slots.len())];
    // Documents mostly follow the schema's order: the particle after the last one matched (or
    // that one again) is tried first.
    let mut last = 0usize;
    // The child's namespace last found equal to a particle's: children mostly share one
    // namespace declaration, so the same document text, compared once.
    let mut known: (&'i str, &'static str) = ("", "");
    while let Some(child) = r.next_child()? {
        let (local, ns) = (child.local_name(), child.namespace());
        let hinted = match (particles.get(last + 1), particles.get(last)) {
            (Some(p), _) if !p.shared && is(p, local, ns, &mut known) => Some(last + 1),
            (_, Some(p)) if !p.shared && is(p, local, ns, &mut known) => Some(last),
            _ => None,
        };
        let taker = match hinted {
            // The only particle of the name: its slot refuses a second occurrence itself.
            Some(i) if !particles[i].yields || !slots[i].is_full() => Some(i),
            Some(_) => None,
            None => scan(particles, slots, local, ns, &mut known),
        };
        match (taker, any.as_deref_mut()) {
            (Some(i), _) => {
                slots[i].take(r, child)?;
                last = i;
            }
            (None, Some(w)) => w.take(r, child)?,
            (None, None) => r.unknown_element_among(&child, particles)?,
        }
    }
    Ok(())
}

/// Whether particle `p` names the element `local` in `ns`; `known` remembers the last pair of
/// namespaces found equal.
#[inline(always)]
fn is<'i>(p: &Particle, local: &str, ns: &'i str, known: &mut (&'i str, &'static str)) -> bool {
    if p.local != local {
        return false;
    }
    if std::ptr::eq(ns, known.0) && std::ptr::eq(p.namespace, known.1) {
        return true;
    }
    let eq = p.namespace == ns;
    if eq {
        *known = (ns, p.namespace);
    }
    eq
}

/// The first particle of the name with room, in declaration order (XML Schema Part 1 §3.9.4): a
/// full one passes the child on when a later particle may take it (`yields`), else takes it (and
/// its slot refuses the duplicate). `None` when no particle has the name or room for it.
fn scan<'i>(
    particles: &[Particle],
    slots: &[&mut dyn Slot<'i>],
    local: &str,
    ns: &'i str,
    known: &mut (&'i str, &'static str),
) -> Option<usize> {
    // Length, then first and last byte, inline: most particles differ there, and a full
    // comparison is a call.
    let b = local.as_bytes();
    let (len, first, end) = (b.len(), b.first(), b.last());
    particles.iter().zip(slots).position(|(p, s)| {
        let a = p.local.as_bytes();
        a.len() == len
            && a.first() == first
            && a.last() == end
            && is(p, local, ns, known)
            && !(p.yields && s.is_full())
    })
}

impl<'i> XmlReader<'i> {
    /// [`unknown_element_in`](Self::unknown_element_in) with the expected names given as
    /// particles.
    fn unknown_element_among(
        &mut self,
        tag: &StartTag<'i>,
        particles: &[Particle],
    ) -> Result<(), DecodeError> {
        // Skipped under leniency: no message to write.
        if self.limits.leniency.unknown_elements {
            return self.unknown_element_in(tag, &[]);
        }
        // Only the particle of the same local name (if any) matters to the message.
        let local = tag.local_name();
        match particles.iter().find(|p| p.local == local) {
            Some(p) => self.unknown_element_in(tag, &[(p.namespace, p.local)]),
            None => self.unknown_element_in(tag, &[]),
        }
    }
}
