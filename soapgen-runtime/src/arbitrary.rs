//! Arbitrary values of XML-bound types for property tests (feature `proptest`): every value
//! generated here can be written by [`XmlWriter`](crate::xml::XmlWriter) and read back by
//! [`XmlReader`](crate::xml::XmlReader) into an equal value.
//!
//! [`ArbitraryXml`] is implemented for the std types generated code uses, for the runtime's XSD
//! built-in types ([`types`](crate::types)), and derived (`#[derive(ArbitraryXml)]`, which
//! soapgen-build emits on every generated struct and enum) for complexTypes, choices and
//! enumerations. Without the feature the derive expands to nothing, so generated code costs nothing.
//!
//! Values are valid for XML, not merely for Rust:
//!
//! - strings hold only the characters XML 1.0 §2.2 allows (production `Char`), with the ones
//!   writers get wrong (`<`, `&`, `]]>`, `\r`, tabs and line feeds, quotes, characters outside the
//!   BMP) more often than chance would give;
//! - `f32`/`f64` are finite or `±INF`, never NaN (NaN ≠ NaN, so no value holding one compares equal);
//! - dates and times are in range (XML Schema Part 2 §3.2.7: no year 0, no `24:00:00`, offsets
//!   within ±14:00), durations with a zero value are never negative (§3.2.6 has no `-PT0S`);
//! - `Vec`s have at most [`Gen::max_len`] items, and a [`Gen::depth`] bounds nesting: past it an
//!   `Option` is `None`, a `Vec` empty, a `Nillable` nil and an `OptionalNillable` absent, so
//!   recursive types terminate;
//! - where XML cannot tell two values apart (an optional model group with nothing in it reads as
//!   absent, XML Schema Part 1 §3.8.4; an empty repeated choice writes nothing), the generator
//!   asks for a value that writes at least one element ([`ArbitraryXml::arbitrary_nonempty`]).
//!
//! Values are drawn from the proptest runner's seeded RNG (so a fixed seed reproduces them) and
//! are not shrunk: [`strategy`] reports a failing case as generated.
//!
//! # Examples
//!
//! ```
//! use proptest::test_runner::{Config, TestRunner};
//! use soapgen_runtime::arbitrary::strategy;
//! use soapgen_runtime::types::DateTime;
//!
//! let mut runner = TestRunner::new(Config { cases: 16, ..Config::default() });
//! runner
//!     .run(&strategy::<Vec<DateTime>>(), |v| {
//!         for t in &v {
//!             assert_eq!(t.to_string().parse::<DateTime>().unwrap(), *t);
//!         }
//!         Ok(())
//!     })
//!     .unwrap();
//! ```

use std::fmt;
use std::marker::PhantomData;

use bytes::Bytes;
use proptest::prelude::Rng;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::{TestRng, TestRunner};

use crate::types::{
    AnyElement, AnyXml, Base64Binary, Date, DateTime, Decimal, Duration, GDay, GMonth, GMonthDay,
    GYear, GYearMonth, HexBinary, Integer, List, Nillable, OptionalNillable, QName, SoapArray,
    SwaRef, Time, TimezoneOffset,
};

pub use soapgen_macros::ArbitraryXml;

/// The default nesting depth of [`Gen`]: complexTypes nested deeper get no optional content.
pub const DEFAULT_DEPTH: u32 = 4;

/// The default most items of a generated `Vec` (and of repeated elements).
pub const DEFAULT_MAX_LEN: usize = 3;

/// The source of arbitrary values: the proptest runner's RNG, the nesting depth left and the
/// longest `Vec` to make.
pub struct Gen<'r> {
    rng: &'r mut TestRng,
    depth: u32,
    max_len: usize,
}

impl fmt::Debug for Gen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gen")
            .field("depth", &self.depth)
            .field("max_len", &self.max_len)
            .finish_non_exhaustive()
    }
}

impl<'r> Gen<'r> {
    /// A generator drawing from `rng`, with [`DEFAULT_DEPTH`] and [`DEFAULT_MAX_LEN`].
    pub fn new(rng: &'r mut TestRng) -> Self {
        Gen {
            rng,
            depth: DEFAULT_DEPTH,
            max_len: DEFAULT_MAX_LEN,
        }
    }

    /// The nesting depth left: 0 means no more optional or repeated content.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The most items a `Vec` gets.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Sets the depth left (see [`depth`](Self::depth)).
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = depth;
    }

    /// Sets the most items a `Vec` gets.
    pub fn set_max_len(&mut self, max_len: usize) {
        self.max_len = max_len;
    }

    /// A uniformly random `u64`.
    pub fn u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniformly random number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.u64() % n
        }
    }

    /// A random index into a slice of `len` items (0 when `len` is 0).
    pub fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }

    /// `true` with probability `1/n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// A random `bool`.
    pub fn bool(&mut self) -> bool {
        self.u64() & 1 == 1
    }

    /// A length for a `Vec`: `min..=max_len`, 0 past the depth limit unless `min` > 0.
    pub fn len(&mut self, min: usize) -> usize {
        if self.depth == 0 {
            return min;
        }
        let max = self.max_len.max(min);
        min + self.index(max - min + 1)
    }

    /// Runs `f` one nesting level deeper (the depth saturates at 0).
    pub fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.depth;
        self.depth = saved.saturating_sub(1);
        let v = f(self);
        self.depth = saved;
        v
    }

    /// A string of XML 1.0 characters (§2.2), `0..=max` of them, as [`String`]'s impl makes them.
    pub fn xml_string(&mut self, max: usize) -> String {
        let n = self.index(max + 1);
        let mut s = String::with_capacity(n);
        for _ in 0..n {
            s.push(self.xml_char());
        }
        s
    }

    /// One character allowed by XML 1.0 §2.2, biased towards the ones that need escaping or
    /// survive normalisation only when escaped.
    pub fn xml_char(&mut self) -> char {
        const TRICKY: &[char] = &[
            '<',
            '>',
            '&',
            '"',
            '\'',
            '\r',
            '\n',
            '\t',
            ' ',
            ']',
            ';',
            '#',
            '\u{a0}',
            '\u{85}',
            '\u{2028}',
            '\u{feff}',
            '\u{fffd}',
            'é',
            '€',
            '\u{1f600}',
            '\u{10ffff}',
        ];
        match self.below(8) {
            0..=2 => char::from(b'a' + self.below(26) as u8),
            3 => TRICKY[self.index(TRICKY.len())],
            4 => char::from(b'0' + self.below(10) as u8),
            5 => char::from(0x20 + self.below(0x5f) as u8),
            _ => {
                // Any Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
                let c = match self.below(3) {
                    0 => 0x20 + self.below(0xd7ff - 0x20 + 1),
                    1 => 0xe000 + self.below(0xfffd - 0xe000 + 1),
                    _ => 0x10000 + self.below(0x10ffff - 0x10000 + 1),
                };
                char::from_u32(c as u32).unwrap_or('x')
            }
        }
    }

    /// A name (an NCName, Namespaces in XML 1.0 §3) of ASCII letters and digits, 1 to 8 long.
    pub fn ncname(&mut self) -> String {
        let n = 1 + self.index(8);
        let mut s = String::with_capacity(n);
        s.push(char::from(b'a' + self.below(26) as u8));
        for _ in 1..n {
            let c = self.below(36) as u8;
            s.push(char::from(if c < 26 { b'a' + c } else { b'0' + c - 26 }));
        }
        s
    }

    fn bytes(&mut self, max: usize) -> Bytes {
        let n = self.index(max + 1);
        let v: Vec<u8> = (0..n).map(|_| self.u64() as u8).collect();
        Bytes::from(v)
    }

    fn offset(&mut self) -> Option<TimezoneOffset> {
        match self.below(3) {
            0 => None,
            1 => Some(TimezoneOffset::UTC),
            _ => {
                let quarter_hours = self.below(113) as i32 - 56;
                TimezoneOffset::from_minutes(quarter_hours * 15)
            }
        }
    }

    fn year(&mut self) -> i32 {
        let y = match self.below(4) {
            0 => self.below(20_000) as i32 - 10_000,
            _ => 1 + self.below(9999) as i32,
        };
        if y == 0 {
            1
        } else {
            y
        }
    }

    fn month(&mut self) -> u32 {
        1 + self.below(12) as u32
    }

    fn day_in(&mut self, year: Option<i32>, month: u32) -> u32 {
        // XML Schema Part 2 Appendix E (maximumDayInMonthFor) applies the Gregorian rule to the
        // year as written, negative years included; a gMonthDay has no year, so 29 February is valid.
        let leap = year.is_none_or(|y| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        1 + self.below(days) as u32
    }

    fn nanos(&mut self) -> u32 {
        match self.below(3) {
            0 => 0,
            1 => self.below(1000) as u32 * 1_000_000,
            _ => self.below(1_000_000_000) as u32,
        }
    }
}

/// A type whose arbitrary values are valid XML content and round-trip through the runtime's
/// writer and reader (see the [module docs](self)).
pub trait ArbitraryXml: Sized {
    /// An arbitrary value.
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self;

    /// An arbitrary value that writes at least one element when it is a model group's content
    /// (XML Schema Part 1 §3.8): used for `Some` of an `Option`, items of a `Vec` and choice
    /// alternatives, where a group with nothing in it would read back as absent. The default is
    /// [`arbitrary_xml`](Self::arbitrary_xml) (a simple value or complexType always writes its
    /// element).
    fn arbitrary_nonempty(g: &mut Gen<'_>) -> Self {
        Self::arbitrary_xml(g)
    }

    /// An arbitrary value of an element field that writes its element at least once, its
    /// content as small as it may be: how a model group past the depth limit still writes
    /// something where it must (a required occurrence of the group, or the alternative a choice
    /// took), without asking the element's own type for content (which a recursive type could
    /// ask for forever). The default is [`arbitrary_xml`](Self::arbitrary_xml) (a required
    /// element always writes itself); `Option` and `Vec` give one occurrence.
    fn arbitrary_present(g: &mut Gen<'_>) -> Self {
        Self::arbitrary_xml(g)
    }

    /// An arbitrary item of an `xs:list` (XML Schema Part 2 §2.5.1.2): items are separated by
    /// whitespace, so a string item is a non-empty run of non-whitespace characters. The default is
    /// [`arbitrary_xml`](Self::arbitrary_xml).
    fn arbitrary_list_item(g: &mut Gen<'_>) -> Self {
        Self::arbitrary_xml(g)
    }

    /// `n` arbitrary items of a repeated element or group (`Vec<Self>`), each
    /// [non-empty](Self::arbitrary_nonempty). A choice overrides it so that two neighbours never
    /// take the same repeatable alternative: `<a/><a/>` read back as one `Vec` alternative of two
    /// items, not two of one (XML cannot tell them apart).
    fn arbitrary_items(g: &mut Gen<'_>, n: usize) -> Vec<Self> {
        (0..n).map(|_| Self::arbitrary_nonempty(g)).collect()
    }
}

/// A proptest [`Strategy`] drawing `T`s with a [`Gen`] of the default settings; values are not
/// shrunk.
pub fn strategy<T: ArbitraryXml + Clone + fmt::Debug>() -> ArbitraryStrategy<T> {
    ArbitraryStrategy {
        depth: DEFAULT_DEPTH,
        max_len: DEFAULT_MAX_LEN,
        _t: PhantomData,
    }
}

/// The [`Strategy`] of [`strategy`].
pub struct ArbitraryStrategy<T> {
    depth: u32,
    max_len: usize,
    _t: PhantomData<fn() -> T>,
}

impl<T> ArbitraryStrategy<T> {
    /// The same strategy with nesting depth `depth` (see [`Gen::depth`]).
    pub fn with_depth(mut self, depth: u32) -> Self {
        self.depth = depth;
        self
    }

    /// The same strategy with at most `max_len` items per `Vec`.
    pub fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }
}

impl<T> fmt::Debug for ArbitraryStrategy<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArbitraryStrategy")
            .field("type", &std::any::type_name::<T>())
            .field("depth", &self.depth)
            .field("max_len", &self.max_len)
            .finish()
    }
}

impl<T: ArbitraryXml + Clone + fmt::Debug> Strategy for ArbitraryStrategy<T> {
    type Tree = Generated<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let mut g = Gen::new(runner.rng());
        g.depth = self.depth;
        g.max_len = self.max_len;
        Ok(Generated(T::arbitrary_xml(&mut g)))
    }
}

/// A generated value, as a [`ValueTree`] that does not shrink.
#[derive(Debug, Clone)]
pub struct Generated<T>(pub T);

impl<T: Clone + fmt::Debug> ValueTree for Generated<T> {
    type Value = T;

    fn current(&self) -> T {
        self.0.clone()
    }

    fn simplify(&mut self) -> bool {
        false
    }

    fn complicate(&mut self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------------------
// std types

/// Any XML 1.0 string (§2.2), up to 12 characters; list items are 1 to 8 non-whitespace ones.
impl ArbitraryXml for String {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        g.xml_string(12)
    }

    fn arbitrary_list_item(g: &mut Gen<'_>) -> Self {
        let n = 1 + g.index(8);
        let mut s = String::with_capacity(n);
        while s.chars().count() < n {
            let c = g.xml_char();
            if !matches!(c, ' ' | '\t' | '\r' | '\n') {
                s.push(c);
            }
        }
        s
    }
}

impl ArbitraryXml for bool {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        g.bool()
    }
}

macro_rules! arbitrary_int {
    ($($t:ty),*) => {$(
        /// Uniform over the type's range, with its bounds and 0 more often.
        impl ArbitraryXml for $t {
            fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
                match g.below(6) {
                    0 => <$t>::MIN,
                    1 => <$t>::MAX,
                    2 => 0,
                    _ => g.u64() as $t,
                }
            }
        }
    )*};
}

arbitrary_int!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! arbitrary_float {
    ($($t:ty, $bits:ty, $from:expr);*) => {$(
        /// Finite values from the whole bit space, `±0`, `±INF`, small integers and decimals; never
        /// NaN.
        impl ArbitraryXml for $t {
            fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
                match g.below(8) {
                    0 => <$t>::INFINITY,
                    1 => <$t>::NEG_INFINITY,
                    2 => 0.0,
                    3 => -0.0,
                    4 => (g.below(2001) as i64 - 1000) as $t / 8.0,
                    5 => (g.below(2001) as i64 - 1000) as $t / 10.0,
                    _ => loop {
                        let v: $t = $from(g.u64() as $bits);
                        if !v.is_nan() {
                            break v;
                        }
                    },
                }
            }
        }
    )*};
}

arbitrary_float!(f32, u32, f32::from_bits; f64, u64, f64::from_bits);

/// `None` past the depth limit or one time in three; `Some` holds a non-empty value.
impl<T: ArbitraryXml> ArbitraryXml for Option<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        if g.depth == 0 || g.one_in(3) {
            None
        } else {
            Some(T::arbitrary_nonempty(g))
        }
    }

    fn arbitrary_nonempty(g: &mut Gen<'_>) -> Self {
        Some(T::arbitrary_nonempty(g))
    }

    fn arbitrary_present(g: &mut Gen<'_>) -> Self {
        Some(T::arbitrary_present(g))
    }
}

/// `0..=max_len` non-empty items (none past the depth limit).
impl<T: ArbitraryXml> ArbitraryXml for Vec<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let n = g.len(0);
        T::arbitrary_items(g, n)
    }

    fn arbitrary_nonempty(g: &mut Gen<'_>) -> Self {
        let n = g.len(1);
        T::arbitrary_items(g, n)
    }

    fn arbitrary_present(g: &mut Gen<'_>) -> Self {
        vec![T::arbitrary_present(g)]
    }
}

impl<T: ArbitraryXml> ArbitraryXml for Box<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        Box::new(T::arbitrary_xml(g))
    }

    fn arbitrary_nonempty(g: &mut Gen<'_>) -> Self {
        Box::new(T::arbitrary_nonempty(g))
    }

    fn arbitrary_present(g: &mut Gen<'_>) -> Self {
        Box::new(T::arbitrary_present(g))
    }

    fn arbitrary_list_item(g: &mut Gen<'_>) -> Self {
        Box::new(T::arbitrary_list_item(g))
    }

    fn arbitrary_items(g: &mut Gen<'_>, n: usize) -> Vec<Self> {
        T::arbitrary_items(g, n).into_iter().map(Box::new).collect()
    }
}

// ---------------------------------------------------------------------------------------------------
// runtime types

/// `Nil` past the depth limit or one time in four (XML Schema Part 1 §2.6.2).
impl<T: ArbitraryXml> ArbitraryXml for Nillable<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        if g.depth == 0 || g.one_in(4) {
            Nillable::Nil
        } else {
            Nillable::Value(T::arbitrary_xml(g))
        }
    }
}

/// Drawn as `Option<Nillable<T>>` is, the same on the wire (XML Schema Part 1 §2.6.2, §3.9.1):
/// `Absent` past the depth limit or one time in three, else `Nil` one time in four.
impl<T: ArbitraryXml> ArbitraryXml for OptionalNillable<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        OptionalNillable::from_nillable(Option::<Nillable<T>>::arbitrary_xml(g))
    }

    fn arbitrary_nonempty(g: &mut Gen<'_>) -> Self {
        OptionalNillable::from_nillable(Option::<Nillable<T>>::arbitrary_nonempty(g))
    }

    fn arbitrary_present(_g: &mut Gen<'_>) -> Self {
        OptionalNillable::Nil
    }
}

/// Items made by [`ArbitraryXml::arbitrary_list_item`] (XML Schema Part 2 §2.5.1.2).
impl<T: ArbitraryXml> ArbitraryXml for List<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let n = g.len(0);
        List((0..n).map(|_| T::arbitrary_list_item(g)).collect())
    }
}

impl<T: ArbitraryXml> ArbitraryXml for SoapArray<T> {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let n = g.len(0);
        SoapArray(T::arbitrary_items(g, n))
    }
}

/// Up to 40 bytes.
impl ArbitraryXml for Base64Binary {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        Base64Binary(g.bytes(40))
    }
}

/// Up to 40 bytes.
impl ArbitraryXml for HexBinary {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        HexBinary(g.bytes(40))
    }
}

/// Up to 40 bytes with a content type; reading one back needs the message's attachments.
impl ArbitraryXml for SwaRef {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let ct = ["application/octet-stream", "image/png", "text/plain"][g.index(3)];
        SwaRef {
            content_type: Some(ct.to_owned()),
            data: g.bytes(40),
        }
    }
}

/// Unbounded: from 0 to 40 decimal digits, either sign.
impl ArbitraryXml for Integer {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let digits = g.index(41);
        let mut v = Integer::from(0u8);
        for _ in 0..digits {
            v = v * 10u8 + (g.below(10) as u8);
        }
        if g.bool() {
            -v
        } else {
            v
        }
    }
}

/// An arbitrary [`Integer`] with a scale of 0 to 20 (trailing zeros kept: `1.50`). No negative
/// scale: `1E+2` is the same number as `100` and reads back as that, which compares equal but
/// prints differently, hiding the real difference in a failure report.
impl ArbitraryXml for Decimal {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let unscaled = Integer::arbitrary_xml(g);
        let scale = g.below(21) as i64;
        Decimal::new(unscaled, scale)
    }
}

/// The date and time types (XML Schema Part 2 §3.2.7–§3.2.13): each field drawn in the order
/// written (after the values several share), the timezone offset last.
macro_rules! arbitrary_temporal {
    ($g:ident => $(
        $ty:ident $(with $($v:ident = $ve:expr),+;)? { $($field:ident $(: $value:expr)?),* $(,)? }
    )*) => {$(
        impl ArbitraryXml for $ty {
            fn arbitrary_xml($g: &mut Gen<'_>) -> Self {
                $($(let $v = $ve;)+)?
                $ty {
                    $($field $(: $value)?,)*
                    offset: $g.offset(),
                }
            }
        }
    )*};
}

arbitrary_temporal! { g =>
    DateTime with year = g.year(), month = g.month(); {
        year,
        month,
        day: g.day_in(Some(year), month),
        hour: g.below(24) as u32,
        minute: g.below(60) as u32,
        second: g.below(60) as u32,
        nanosecond: g.nanos(),
    }
    Date with year = g.year(), month = g.month(); {
        year,
        month,
        day: g.day_in(Some(year), month),
    }
    Time {
        hour: g.below(24) as u32,
        minute: g.below(60) as u32,
        second: g.below(60) as u32,
        nanosecond: g.nanos(),
    }
    GYear { year: g.year() }
    GYearMonth { year: g.year(), month: g.month() }
    GMonth { month: g.month() }
    GMonthDay with month = g.month(); {
        month,
        day: g.day_in(None, month),
    }
    GDay { day: 1 + g.below(31) as u32 }
}

/// Components kept small or zero; negative only when not zero (§3.2.6).
impl ArbitraryXml for Duration {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let part = |g: &mut Gen<'_>| if g.bool() { 0 } else { g.below(1000) };
        let mut d = Duration {
            negative: false,
            years: part(g),
            months: part(g),
            days: part(g),
            hours: part(g),
            minutes: part(g),
            seconds: part(g),
            nanoseconds: if g.bool() { 0 } else { g.nanos() },
        };
        d.negative = !d.is_zero() && g.bool();
        d
    }
}

/// A name in no namespace or in one of three `urn:` namespaces.
impl ArbitraryXml for QName {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let local = g.ncname();
        match g.below(4) {
            0 => QName::local(local),
            n => QName::new(format!("urn:soapgen:arbitrary:{n}"), local),
        }
    }
}

/// Text and a child element of XML 1.0 characters, escaped.
fn any_content(g: &mut Gen<'_>) -> String {
    let mut out = String::new();
    for _ in 0..g.index(3) {
        if g.bool() {
            let t = g.xml_string(8);
            for c in t.chars() {
                match c {
                    '<' => out.push_str("&lt;"),
                    '&' => out.push_str("&amp;"),
                    '>' => out.push_str("&gt;"),
                    '\r' => out.push_str("&#13;"),
                    // A colon could read as a use of a prefix in scope (see AnyElement).
                    ':' => out.push('_'),
                    c => out.push(c),
                }
            }
        } else {
            let name = g.ncname();
            let v = g.ncname();
            out.push_str(&format!(
                "<q:{name} xmlns:q=\"urn:soapgen:any\" q:a=\"{v}\">{v}</q:{name}>"
            ));
        }
    }
    out
}

/// An element in its own namespace, declared on its start tag, with text and child elements
/// (`xs:any`, XML Schema Part 1 §3.10).
impl ArbitraryXml for AnyElement {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        let name = g.ncname();
        let content = any_content(g);
        let xml = if content.is_empty() && g.bool() {
            format!("<a:{name} xmlns:a=\"urn:soapgen:any:element\"/>")
        } else {
            format!("<a:{name} xmlns:a=\"urn:soapgen:any:element\">{content}</a:{name}>")
        };
        AnyElement { xml }
    }
}

/// Text and self-contained child elements, no bindings (the content of an `xs:anyType` element,
/// XML Schema Part 1 §3.4.7).
impl ArbitraryXml for AnyXml {
    fn arbitrary_xml(g: &mut Gen<'_>) -> Self {
        AnyXml {
            content: any_content(g),
            bindings: Vec::new(),
        }
    }
}

/// An arbitrary value of an element declared with a `default` or `fixed` value (XML Schema
/// Part 1 §3.3.4 item 5.1, §3.3.1): a present element with empty content reads as that value,
/// so a `value` whose text is empty becomes `literal`; a fixed element always holds `literal`.
/// A `literal` the type cannot read leaves `value` as it is. Called by
/// `#[derive(ArbitraryXml)]` for such fields, on each occurrence.
#[doc(hidden)]
pub fn constrained<T: crate::types::FromXmlText + crate::types::ToXmlText>(
    value: T,
    literal: &str,
    fixed: bool,
) -> T {
    let Ok(v) = T::from_xml_text(literal, &crate::types::NoNamespaces) else {
        return value;
    };
    if fixed || text_is_empty(&value) {
        v
    } else {
        value
    }
}

/// Whether `value` writes no text as element content.
fn text_is_empty<T: crate::types::ToXmlText>(value: &T) -> bool {
    let mut w = crate::xml::XmlWriter::new();
    let written = w
        .start_element(crate::xml::Name::unqualified("v"))
        .and_then(|()| w.text_value(value))
        .and_then(|()| w.end_element());
    written.is_ok() && w.into_string().is_ok_and(|s| s == "<v/>")
}
