//! The layout of an operation's response as static data ([`ResponseShape`]), and how a result
//! is read from it, one marker per occurrence of the result element ([`result`]): what
//! generated code picks per operation, so that reading code is instantiated once per result
//! type.

use crate::error::DecodeError;
use crate::message::Operation;
use crate::mime::Attachments;
use crate::xml::{Name, StartTag, XmlReader};

/// The layout of an operation's response Body, as the binding describes it (WSDL 1.1 §3.5
/// `soap:body`, §2.4.1 one-way). Static data in generated code, one per operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseShape {
    /// The Body's child is the result, read whole: document/literal bare (WSDL 1.1 §3.5, the part's
    /// element), or a response wrapper with several children read as one struct. The child must
    /// be this element.
    Element(Name<'static>),
    /// A response wrapper holding the result element: document/literal wrapped and rpc/literal
    /// (WSDL 1.1 §3.5, the part accessor inside the operation's response element). A repeated
    /// result has at least `min` occurrences (XML Schema Part 1 §3.9.1). With a `()` result the
    /// wrapper must hold nothing (unknown children are refused unless the reader is lenient).
    /// Built with [`ResponseShape::wrapped`] or [`ResponseShape::rpc`].
    #[non_exhaustive]
    Wrapped {
        /// The response wrapper element.
        wrapper: Name<'static>,
        /// The result element inside it.
        result: Name<'static>,
        /// minOccurs of a repeated result element; 0 otherwise.
        min: u64,
        /// rpc style: the wrapper is taken whatever its name, which SOAP 1.1 §7.1 says is not
        /// significant (`{operation}Response` is only the convention); document style: it must
        /// be `wrapper`.
        rpc: bool,
        /// The repeated element inside the result element, for a streamed result whose result
        /// element holds the items (.NET's `ArrayOf…` types: `GetReportResult` holding `Row`s);
        /// `min` is then the items' minOccurs. Set with [`ResponseShape::with_items`].
        items: Option<Name<'static>>,
    },
    /// rpc/encoded (SOAP 1.1 §7.1): the response wrapper's single child, whatever its name (the
    /// return accessor's name is not significant); `result` names it in errors. The wrapper is
    /// taken whatever its name too. Built with [`ResponseShape::encoded`].
    #[non_exhaustive]
    Encoded {
        /// The response wrapper element (its conventional name).
        wrapper: Name<'static>,
        /// The declared result accessor, for "missing element" errors.
        result: Name<'static>,
    },
    /// A one-way operation (WSDL 1.1 §2.4.1): no response is expected; a 2xx with an empty body or
    /// an empty `Body` is success, a fault is still reported.
    OneWay,
    /// rpc style with several parts (WSDL 1.1 §3.5, SOAP 1.1 §7.1): the response wrapper read
    /// whole as one struct of the part accessors, whatever its name, which is not significant.
    /// Built with [`ResponseShape::rpc_whole`].
    #[non_exhaustive]
    RpcWhole {
        /// The response wrapper's conventional name (`{operation}Response`), for errors.
        wrapper: Name<'static>,
    },
}

impl ResponseShape {
    /// Document/literal wrapped (WSDL 1.1 §3.5): the result element `result` inside the response
    /// wrapper `wrapper`, at least `min` times when repeated (XML Schema Part 1 §3.9.1
    /// minOccurs; 0 otherwise).
    pub const fn wrapped(wrapper: Name<'static>, result: Name<'static>, min: u64) -> Self {
        ResponseShape::Wrapped {
            wrapper,
            result,
            min,
            rpc: false,
            items: None,
        }
    }

    /// rpc/literal (WSDL 1.1 §3.5, SOAP 1.1 §7.1): as [`wrapped`](ResponseShape::wrapped), the
    /// wrapper taken whatever its name.
    pub const fn rpc(wrapper: Name<'static>, result: Name<'static>, min: u64) -> Self {
        ResponseShape::Wrapped {
            wrapper,
            result,
            min,
            rpc: true,
            items: None,
        }
    }

    /// This [`Wrapped`](ResponseShape::Wrapped) shape with its result element holding repeated
    /// `items`, at least `min` of them (XML Schema Part 1 §3.9.1): the layout of a streamed
    /// result that is an array type (`<GetReportResult><Row/><Row/></GetReportResult>`, .NET's
    /// `ArrayOf…`), read by [`result::Items`]. Other shapes are returned as they are.
    pub const fn with_items(self, items: Name<'static>, min: u64) -> Self {
        match self {
            ResponseShape::Wrapped {
                wrapper,
                result,
                rpc,
                ..
            } => ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
                items: Some(items),
            },
            other => other,
        }
    }

    /// rpc style with several parts (SOAP 1.1 §7.1): the wrapper read whole, whatever its name;
    /// `wrapper` is the conventional name, for errors.
    pub const fn rpc_whole(wrapper: Name<'static>) -> Self {
        ResponseShape::RpcWhole { wrapper }
    }

    /// rpc/encoded (SOAP 1.1 §7.1): the wrapper's single child, whatever its name; `wrapper` and
    /// `result` are the conventional names, for errors.
    pub const fn encoded(wrapper: Name<'static>, result: Name<'static>) -> Self {
        ResponseShape::Encoded { wrapper, result }
    }
}

/// What a result's [`Decoder`] is given beside the Body's child: how the response is laid out,
/// its attachments, and the operation (for errors).
#[derive(Debug, Clone, Copy)]
pub struct ResponseContext<'a> {
    /// The layout of the response Body.
    pub shape: &'a ResponseShape,
    /// The parts of a `multipart/related` response other than its root (none for plain SOAP).
    pub attachments: &'a Attachments,
    /// The operation called.
    pub operation: &'a Operation,
}

/// Reads an operation's result from the Body's child (`Some`: the reader just after its start
/// tag) or from an empty Body (`None`), as the context's shape lays it out: a plain function
/// pointer (one of the result markers' `read`, or a non-capturing closure of generated code for
/// results with attachments), so [`Call`](crate::Call) is generic over the result type only.
pub type Decoder<T> = for<'i> fn(
    Option<(&mut XmlReader<'i>, StartTag<'i>)>,
    &ResponseContext<'_>,
) -> Result<T, DecodeError>;

/// How a result is read, one marker per occurrence of the result element (XML Schema Part 1
/// §3.9.1 minOccurs/maxOccurs, §3.3.1 nillable). `#[soap_client]` picks the marker from the result
/// type; each `read` is a [`Decoder`].
pub mod result {
    use std::marker::PhantomData;

    use super::ResponseContext;
    use super::ResponseShape;
    use crate::error::{DecodeError, DecodeErrorKind, Location};
    use crate::types::Nillable as Nil;
    use crate::xml::{FromXml, Name, StartTag, XmlReader};

    /// The element names of a shape that has a wrapper: (wrapper, result, min).
    fn wrapped<'i>(
        r: &XmlReader<'i>,
        start: &StartTag<'i>,
        shape: &ResponseShape,
    ) -> Result<(Name<'static>, u64), DecodeError> {
        match *shape {
            ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
                ..
            } if rpc || r.matches(start, wrapper) => Ok((result, min)),
            ResponseShape::Encoded { result, .. } => Ok((result, 0)),
            ResponseShape::Wrapped { wrapper, .. } => {
                Err(r.unexpected_in(start, &[(wrapper.namespace, wrapper.local)]))
            }
            _ => Err(r.unexpected(start)),
        }
    }

    /// The "no response element" error of an empty Body where one was expected.
    fn empty(shape: &ResponseShape) -> DecodeError {
        let what = match shape {
            ResponseShape::Element(n) => n.local,
            ResponseShape::Wrapped { wrapper, .. }
            | ResponseShape::Encoded { wrapper, .. }
            | ResponseShape::RpcWhole { wrapper } => wrapper.local,
            ResponseShape::OneWay => "",
        };
        DecodeError::new(
            DecodeErrorKind::MissingElement(what.to_owned()),
            Location {
                path: "Body".to_owned(),
                ..Default::default()
            },
        )
    }

    /// A response wrapper read by [`wrapped_children`]: the reader at its end, its start tag,
    /// and the result element's name and minOccurs.
    struct Wrapper<'r, 'i> {
        r: &'r mut XmlReader<'i>,
        start: StartTag<'i>,
        result: Name<'static>,
        min: u64,
    }

    /// Reads a wrapped (or encoded) response's wrapper, `child`: each result element into `slot`
    /// by `accept`, anything else refused (or skipped by a lenient reader).
    fn wrapped_children<'r, 'i, S>(
        child: Option<(&'r mut XmlReader<'i>, StartTag<'i>)>,
        shape: &ResponseShape,
        slot: &mut S,
        accept: fn(&mut S, &mut XmlReader<'i>, StartTag<'i>) -> Result<(), DecodeError>,
    ) -> Result<Wrapper<'r, 'i>, DecodeError> {
        let Some((r, start)) = child else {
            return Err(empty(shape));
        };
        let (result, min) = wrapped(r, &start, shape)?;
        while let Some(child) = r.next_child()? {
            if r.matches(&child, result) {
                accept(slot, r, child)?;
            } else {
                r.unknown_element_in(&child, &[(result.namespace, result.local)])?;
            }
        }
        Ok(Wrapper {
            r,
            start,
            result,
            min,
        })
    }

    /// `()`: a response wrapper with no result ([`ResponseShape::Wrapped`]), or no response at
    /// all ([`ResponseShape::OneWay`]).
    #[derive(Debug)]
    pub struct Unit;

    impl Unit {
        /// The [`Decoder`].
        ///
        /// # Errors
        ///
        /// A wrong or missing wrapper, content in it (unless lenient), a payload for a one-way
        /// operation.
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            cx: &ResponseContext<'_>,
        ) -> Result<(), DecodeError> {
            let shape = cx.shape;
            match (child, shape) {
                (None, ResponseShape::OneWay) => Ok(()),
                (None, _) => Err(empty(shape)),
                // WSDL 1.1 §2.4.1 expects no response; some servers still send an (empty)
                // response element with a 200: there is nothing to read in it.
                (Some((r, start)), ResponseShape::OneWay) => {
                    tracing::debug!(
                        element = start.local_name(),
                        "one-way operation answered with a body element: skipped"
                    );
                    r.skip_element()
                }
                (child, _) => {
                    wrapped_children(child, shape, &mut (), |_, r, c| r.unknown_element(&c))?;
                    Ok(())
                }
            }
        }
    }

    /// `T` read whole: the Body's child ([`ResponseShape::Element`]; an rpc wrapper whatever its
    /// name, [`ResponseShape::RpcWhole`]), or the single accessor of an rpc/encoded wrapper
    /// whatever its name ([`ResponseShape::Encoded`], SOAP 1.1 §7.1).
    #[derive(Debug)]
    pub struct Whole<T>(PhantomData<T>);

    impl<T: FromXml> Whole<T> {
        /// The [`Decoder`].
        ///
        /// # Errors
        ///
        /// A wrong element; what `T`'s reader refuses; for an encoded wrapper, no child or more
        /// than one.
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            cx: &ResponseContext<'_>,
        ) -> Result<T, DecodeError> {
            let shape = cx.shape;
            let Some((r, start)) = child else {
                return Err(empty(shape));
            };
            match *shape {
                ResponseShape::Element(name) if r.matches(&start, name) => T::read_xml(r, start),
                ResponseShape::RpcWhole { .. } => T::read_xml(r, start),
                ResponseShape::Encoded { result, .. } => {
                    let Some(c) = r.next_child()? else {
                        return Err(r.missing(result));
                    };
                    let v = T::read_xml(r, c)?;
                    if let Some(x) = r.next_child()? {
                        return Err(r.unexpected(&x));
                    }
                    Ok(v)
                }
                ResponseShape::Element(name) => {
                    Err(r.unexpected_in(&start, &[(name.namespace, name.local)]))
                }
                _ => Err(r.unexpected(&start)),
            }
        }
    }

    /// A result marker of a wrapped response: the marker type, and its `read` (documented by
    /// `$read_doc`), which reads the wrapper's results into the slot `$slot` (first `$init`) by
    /// `$accept` with [`wrapped_children`], then gives `$value` by `$finish`, with the wrapper
    /// read as `$w`.
    macro_rules! wrapped_marker {
        (
            $(#[$doc:meta])* $marker:ident => $value:ty,
            $(#[$read_doc:meta])* read($slot:ident = $init:expr, $accept:expr, |$w:ident| $finish:expr)
        ) => {
            $(#[$doc])*
            #[derive(Debug)]
            pub struct $marker<T>(PhantomData<T>);

            impl<T: FromXml> $marker<T> {
                $(#[$read_doc])*
                pub fn read<'i>(
                    child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
                    cx: &ResponseContext<'_>,
                ) -> Result<$value, DecodeError> {
                    let mut $slot = $init;
                    let $w = wrapped_children(child, cx.shape, &mut $slot, $accept)?;
                    $finish
                }
            }
        };
    }

    /// A marker of a result element that occurs at most once: read into the `Option` of `$item`
    /// `$slot` by `$read`, a second one an error, the value given by `$finish`.
    macro_rules! single {
        ($(#[$doc:meta])* $marker:ident, $item:ty => $value:ty, $read:path, |$slot:ident, $w:ident| $finish:expr) => {
            wrapped_marker!(
                $(#[$doc])* $marker => $value,
                /// The [`Decoder`] of a [`ResponseShape::Wrapped`] (or `Encoded`) response.
                ///
                /// # Errors
                ///
                /// A wrong or missing wrapper, a missing, duplicated or nil result where that
                /// is not allowed, unknown children (unless lenient), what `T`'s reader refuses.
                read($slot = None::<$item>,
                |slot, r, c| {
                    if slot.is_some() {
                        return Err(r.duplicate(&c));
                    }
                    *slot = Some($read(r, c)?);
                    Ok(())
                },
                |$w| $finish)
            );
        };
    }

    single!(
        /// `T`: exactly one result element, not nil.
        One, T => T, crate::__private::read_required,
        |slot, w| crate::__private::required(w.r, &w.start, slot, w.result)
    );
    single!(
        /// `Option<T>`: at most one result element, not nillable (nil is an error unless
        /// [`Leniency::nil_on_non_nillable`](crate::xml::Leniency::nil_on_non_nillable)).
        Optional, Option<T> => Option<T>, crate::__private::read_optional,
        |slot, _w| Ok(slot.flatten())
    );
    single!(
        /// `Nillable<T>`: exactly one result element, possibly nil (XML Schema Part 1 §2.6.2).
        Nillable, Nil<T> => Nil<T>, crate::__private::read_nillable,
        |slot, w| crate::__private::required(w.r, &w.start, slot, w.result)
    );
    single!(
        /// `Option<Nillable<T>>`: at most one result element, possibly nil.
        OptionalNillable, Nil<T> => Option<Nil<T>>, crate::__private::read_nillable,
        |slot, _w| Ok(slot)
    );

    /// `OptionalNillable<T>`: at most one result element, possibly nil, in one type (absent, nil
    /// or a value).
    #[derive(Debug)]
    pub struct Tristate<T>(PhantomData<T>);

    impl<T: FromXml> Tristate<T> {
        /// The [`Decoder`] of a [`ResponseShape::Wrapped`] response.
        ///
        /// # Errors
        ///
        /// As [`One::read`].
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            cx: &ResponseContext<'_>,
        ) -> Result<crate::types::OptionalNillable<T>, DecodeError> {
            OptionalNillable::<T>::read(child, cx)
                .map(crate::types::OptionalNillable::from_nillable)
        }
    }

    /// A marker of a repeated result element: every one read by `$read` into a `Vec`, at least
    /// the shape's `min`.
    macro_rules! many {
        ($(#[$doc:meta])* $marker:ident, $item:ty, $read:path) => {
            wrapped_marker!(
                $(#[$doc])* $marker => Vec<$item>,
                /// The [`Decoder`] of a [`ResponseShape::Wrapped`] response: every result element,
                /// at least the shape's `min`.
                ///
                /// # Errors
                ///
                /// A wrong or missing wrapper, fewer than `min` results
                /// ([`DecodeErrorKind::TooFewElements`]), unknown children (unless lenient), what
                /// `T`'s reader refuses.
                read(slot = Vec::<$item>::new(),
                |slot, r, c| {
                    slot.push($read(r, c)?);
                    Ok(())
                },
                |w| crate::__private::min_occurs(w.r, &w.start, slot, w.min, w.result))
            );
        };
    }

    many!(
        /// `Vec<T>`: the repeated result element (none is an empty `Vec` unless `min` says otherwise).
        Many, T, crate::__private::read_required
    );
    many!(
        /// `Vec<Nillable<T>>`: the repeated result element, each possibly nil.
        ManyNillable, Nil<T>, crate::__private::read_nillable
    );

    /// What [`Items`] reads into: the items, their element, whether the result element was seen.
    struct ItemSlot<I> {
        items: Vec<I>,
        name: Name<'static>,
        seen: bool,
    }

    /// A marker of a result element that holds the repeated items (.NET's `ArrayOf…`,
    /// [`ResponseShape::with_items`]): each item read by `$read` into a `Vec`.
    macro_rules! items {
        ($(#[$doc:meta])* $marker:ident, $item:ty, $read:path) => {
            $(#[$doc])*
            #[derive(Debug)]
            pub struct $marker<T>(PhantomData<T>);

            impl<T: FromXml> $marker<T> {
                /// The [`Decoder`] of a [`ResponseShape::Wrapped`] response whose result element
                /// holds the items: every item, at least the shape's `min`. A result element that
                /// is absent or nil holds none.
                ///
                /// # Errors
                ///
                /// A wrong or missing wrapper, the result element twice, fewer than `min` items
                /// ([`DecodeErrorKind::TooFewElements`]), unknown children (unless lenient), what
                /// `T`'s reader refuses.
                pub fn read<'i>(
                    child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
                    cx: &ResponseContext<'_>,
                ) -> Result<Vec<$item>, DecodeError> {
                    let name = match *cx.shape {
                        ResponseShape::Wrapped { items: Some(n), .. } => n,
                        _ => Name::new("", ""),
                    };
                    let mut slot = ItemSlot { items: Vec::new(), name, seen: false };
                    let w = wrapped_children(child, cx.shape, &mut slot, |slot, r, c| {
                        if std::mem::replace(&mut slot.seen, true) {
                            return Err(r.duplicate(&c));
                        }
                        if r.is_nil(&c)? {
                            return r.skip_element();
                        }
                        while let Some(item) = r.next_child()? {
                            if r.matches(&item, slot.name) {
                                slot.items.push($read(r, item)?);
                            } else {
                                r.unknown_element_in(
                                    &item,
                                    &[(slot.name.namespace, slot.name.local)],
                                )?;
                            }
                        }
                        Ok(())
                    })?;
                    crate::__private::min_occurs(w.r, &w.start, slot.items, w.min, name)
                }
            }
        };
    }

    items!(
        /// `Vec<T>` of a streamed array result: the items inside the result element.
        Items, T, crate::__private::read_required
    );
    items!(
        /// `Vec<Nillable<T>>` of a streamed array result: the items, each possibly nil.
        ItemsNillable, Nil<T>, crate::__private::read_nillable
    );
}
