//! `ArbitraryXml` (feature `proptest`): values of every built-in type and of derived structs,
//! choices and enumerations round-trip through the writer and the reader (write → read → equal).

use std::fmt::Debug;

use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use soapgen_runtime::arbitrary::{strategy, ArbitraryXml, Gen};
use soapgen_runtime::types::{
    AnyElement, AnyXml, Base64Binary, Date, DateTime, Decimal, Duration, GDay, GMonth, GMonthDay,
    GYear, GYearMonth, HexBinary, Integer, List, Nillable, OptionalNillable, QName, Time,
};
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{FromXml, ToXml};

/// Writes `v` as `<t:v>`, reads it back; the XML on failure.
fn round_trip<T: ToXml + FromXml + PartialEq + Debug>(v: &T) -> Result<(), String> {
    let xml =
        xml::to_string(v, Name::new("urn:t", "v")).map_err(|e| format!("write {v:?}: {e}"))?;
    let back: T = xml::from_str(&xml).map_err(|e| format!("read {xml}: {e}"))?;
    if &back == v {
        Ok(())
    } else {
        let (a, b) = (format!("{v:?}"), format!("{back:?}"));
        let at = a
            .char_indices()
            .zip(b.chars())
            .find(|((_, x), y)| x != y)
            .map_or(a.len().min(b.len()), |((i, _), _)| i);
        let around = |s: &str| -> String {
            s.chars()
                .skip(s[..at.min(s.len())].chars().count().saturating_sub(200))
                .take(400)
                .collect()
        };
        Err(format!(
            "value and value read back differ at …{}…\n read back: …{}…\n wrote {} bytes of XML: {}",
            around(&a),
            around(&b),
            xml.len(),
            xml.chars().take(3000).collect::<String>()
        ))
    }
}

fn check<T: ArbitraryXml + ToXml + FromXml + PartialEq + Clone + Debug>() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 256,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    runner
        .run(&strategy::<T>(), |v| {
            round_trip(&v).map_err(proptest::test_runner::TestCaseError::fail)
        })
        .unwrap_or_else(|e| {
            let e = e.to_string();
            let e = e.split("minimal failing input").next().unwrap_or_default();
            panic!("{}: {e}", std::any::type_name::<T>())
        });
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ToXml, FromXml, ArbitraryXml)]
enum Sign {
    #[xml(rename = "+")]
    Plus,
    #[xml(rename = "")]
    Empty,
    #[xml(rename = "a b")]
    Spaced,
    #[xml(rename = "1st")]
    First,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t")]
struct Leaf {
    #[xml(attribute)]
    id: Option<String>,
    #[xml(attribute)]
    signs: Option<List<Sign>>,
    text: String,
    maybe: Option<String>,
    nil: Option<Nillable<String>>,
    absent_nil_or_value: OptionalNillable<Box<Priced>>,
    must_nil: Nillable<i32>,
    many: Vec<String>,
    sign: Sign,
    tokens: List<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t")]
struct Priced {
    #[xml(attribute)]
    currency: String,
    #[xml(text)]
    amount: Decimal,
}

/// A sequence group of optional elements (an empty one would read back as absent). Its names are
/// not those of `Pick`'s: a `Vec<Pick>` after an `Option<Pair>` would be ambiguous (XML Schema
/// Part 1 §3.8.6, Unique Particle Attribution).
#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t", sequence)]
struct Pair {
    first: Option<String>,
    second: Option<i64>,
}

/// The same shape under other names, for `Pick`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t", sequence)]
struct Pair2 {
    third: Option<String>,
    fourth: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t")]
enum Pick {
    Name(String),
    Numbers(Vec<i32>),
    When(Nillable<DateTime>),
    #[xml(group)]
    Both(Pair2),
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
#[xml(namespace = "urn:t")]
struct Node {
    leaf: Leaf,
    priced: Option<Priced>,
    #[xml(group)]
    pair: Option<Pair>,
    #[xml(group)]
    pick: Vec<Pick>,
    children: Vec<Node>,
    extra: Option<AnyXml>,
    #[xml(any)]
    rest: Vec<AnyElement>,
}

macro_rules! simple {
    ($($name:ident: $t:ty;)*) => {$(
        #[test]
        fn $name() {
            /// The type as an element, optional, repeated, nillable and as an attribute.
            #[derive(Debug, Clone, PartialEq, ToXml, FromXml, ArbitraryXml)]
            #[xml(namespace = "urn:t")]
            struct Holder {
                #[xml(attribute)]
                attr: Option<$t>,
                one: $t,
                opt: Option<$t>,
                many: Vec<$t>,
                nil: Option<Nillable<$t>>,
                tristate: OptionalNillable<$t>,
            }
            check::<$t>();
            check::<Holder>();
        }
    )*};
}

simple! {
    string: String;
    boolean: bool;
    byte: i8;
    int: i32;
    long: i64;
    unsigned_long: u64;
    float: f32;
    double: f64;
    integer: Integer;
    decimal: Decimal;
    date_time: DateTime;
    date: Date;
    time: Time;
    duration: Duration;
    g_year: GYear;
    g_year_month: GYearMonth;
    g_month: GMonth;
    g_month_day: GMonthDay;
    g_day: GDay;
    qname: QName;
    base64: Base64Binary;
    hex: HexBinary;
    string_list: List<String>;
    int_list: List<i32>;
    qname_list: List<QName>;
    enumeration: Sign;
    enumeration_list: List<Sign>;
}

#[test]
fn nillable() {
    check::<Leaf>();
}

#[test]
fn simple_content() {
    check::<Priced>();
}

#[test]
fn recursive_with_groups_and_wildcards() {
    check::<Node>();
}

#[test]
fn depth_ends_recursion() {
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut g = Gen::new(&mut rng);
    g.set_depth(0);
    for _ in 0..100 {
        let n = Node::arbitrary_xml(&mut g);
        assert!(n.children.is_empty() && n.pick.is_empty() && n.leaf.many.is_empty());
    }
}

#[test]
fn strings_hold_xml_characters_only() {
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut g = Gen::new(&mut rng);
    for _ in 0..2000 {
        let s = String::arbitrary_xml(&mut g);
        assert!(s.chars().all(|c| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)), "{s:?}");
        let item = String::arbitrary_list_item(&mut g);
        assert!(
            !item.is_empty() && !item.contains([' ', '\t', '\r', '\n']),
            "{item:?}"
        );
        let f = f64::arbitrary_xml(&mut g);
        assert!(!f.is_nan());
    }
}
