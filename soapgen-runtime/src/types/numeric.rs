//! Numeric and boolean built-in types (XML Schema Part 2 §3.2.2–§3.2.5, §3.3.13–§3.3.23).
//!
//! Reading applies the `collapse` whiteSpace facet (leading and trailing XML whitespace is ignored) and
//! then accepts exactly the XSD 1.0 lexical space: no Rust-isms (`inf`, `1_000`, `0x10`), no locale
//! forms (`1,5`). Writing produces a form in the lexical space that reads back to the same value.

use std::fmt::{self, Write as _};

use super::{collapse, FromXmlText, PrefixResolver, ToXmlText};
use crate::error::{EncodeError, ValueError};
use crate::xml::TextOut;

/// xs:integer (XML Schema Part 2 §3.3.13): an unbounded integer, also used for the derived types
/// nonPositiveInteger, negativeInteger, nonNegativeInteger and positiveInteger (§3.3.14–§3.3.16,
/// §3.3.20, §3.3.25).
///
/// Lexical form `[+-]?[0-9]+`; written without sign for non-negative values and without leading zeros.
pub type Integer = num_bigint::BigInt;

/// xs:decimal (XML Schema Part 2 §3.2.3): an arbitrary-precision decimal number, never rounded
/// through `f64`.
///
/// Lexical form `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`: no exponent, no thousands separators. It is
/// written in plain decimal notation (never an exponent, however large or small the value) and keeps
/// its scale: `1.50` is written `1.50`, as read (many services expect amounts with a fixed number of
/// fraction digits); a negative scale is written as an integer (`1E+3` as `1000`).
pub type Decimal = bigdecimal::BigDecimal;

/// A fixed-size ASCII buffer for formatting a simple value without allocating.
pub(super) struct AsciiBuf<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> AsciiBuf<N> {
    pub(super) fn new() -> Self {
        AsciiBuf {
            buf: [0; N],
            len: 0,
        }
    }

    pub(super) fn as_str(&self) -> &str {
        // Only `write_str` fills the buffer, with whole `&str`s.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

impl<const N: usize> fmt::Write for AsciiBuf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------
// boolean

/// xs:boolean (XML Schema Part 2 §3.2.2): lexical forms `true`, `false`, `1`, `0`; written as the
/// canonical `true` or `false`.
impl ToXmlText for bool {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_ascii_safe(if *self { "true" } else { "false" });
        Ok(())
    }
}

/// xs:boolean (XML Schema Part 2 §3.2.2): accepts `true`, `false`, `1`, `0` (case-sensitive).
impl FromXmlText for bool {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        match collapse(text) {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            t => Err(ValueError::new("boolean", t).because("expected true, false, 1 or 0")),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// bounded integers

/// Splits an integer literal `[+-]?[0-9]+` into (negative, digits), or says why it is not one.
fn split_integer(t: &str) -> Result<(bool, &str), &'static str> {
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() {
        return Err("expected digits");
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("expected an optional sign followed by digits only");
    }
    Ok((negative, digits))
}

/// Parses an integer literal into `min..=max`.
fn parse_bounded(
    type_name: &'static str,
    text: &str,
    min: i128,
    max: i128,
) -> Result<i128, ValueError> {
    let t = collapse(text);
    let (negative, digits) =
        split_integer(t).map_err(|r| ValueError::new(type_name, t).because(r))?;
    let magnitude = digits.bytes().try_fold(0i128, |acc, d| {
        acc.checked_mul(10)?.checked_add(i128::from(d - b'0'))
    });
    let value = magnitude.map(|m| if negative { -m } else { m });
    match value {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ValueError::new(type_name, t).because(format!("out of range {min}..={max}"))),
    }
}

macro_rules! bounded_integer {
    ($($ty:ty => $xsd:literal, $section:literal;)*) => {$(
        #[doc = concat!("xs:", $xsd, " (XML Schema Part 2 ", $section, "): written in decimal digits, with `-` when negative.")]
        impl ToXmlText for $ty {
            fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
                // Decimal digits straight into a stack buffer (itoa), without `fmt`.
                out.push_ascii_safe(itoa::Buffer::new().format(*self));
                Ok(())
            }
        }

        #[doc = concat!("xs:", $xsd, " (XML Schema Part 2 ", $section, "): lexical form `[+-]?[0-9]+`, range-checked.")]
        impl FromXmlText for $ty {
            fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
                let v = parse_bounded($xsd, text, i128::from(<$ty>::MIN), i128::from(<$ty>::MAX))?;
                // In range by construction.
                <$ty>::try_from(v).map_err(|_| ValueError::new($xsd, collapse(text)))
            }
        }
    )*};
}

bounded_integer! {
    i8 => "byte", "§3.3.19";
    i16 => "short", "§3.3.18";
    i32 => "int", "§3.3.17";
    i64 => "long", "§3.3.16";
    u8 => "unsignedByte", "§3.3.24";
    u16 => "unsignedShort", "§3.3.23";
    u32 => "unsignedInt", "§3.3.22";
    u64 => "unsignedLong", "§3.3.21";
}

// ---------------------------------------------------------------------------------------------------
// integer

/// xs:integer (XML Schema Part 2 §3.3.13): written in decimal digits, with `-` when negative.
impl ToXmlText for Integer {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_ascii_safe(&self.to_str_radix(10));
        Ok(())
    }
}

/// xs:integer (XML Schema Part 2 §3.3.13): lexical form `[+-]?[0-9]+`, unbounded.
impl FromXmlText for Integer {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        let t = collapse(text);
        let (negative, digits) =
            split_integer(t).map_err(|r| ValueError::new("integer", t).because(r))?;
        let magnitude = Integer::parse_bytes(digits.as_bytes(), 10)
            .ok_or_else(|| ValueError::new("integer", t))?;
        Ok(if negative { -magnitude } else { magnitude })
    }
}

// ---------------------------------------------------------------------------------------------------
// decimal

/// The most zeros [`Decimal`] writing pads with (beyond the digits themselves); a value needing more
/// (`1E+2000000`) cannot be written in plain notation in reasonable space.
const MAX_DECIMAL_PADDING: u64 = 1 << 20;

/// Parses the xs:decimal lexical form `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`.
fn parse_decimal(t: &str) -> Result<Decimal, &'static str> {
    let (negative, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (int_part, frac_part) = match rest.split_once('.') {
        Some((i, f)) => (i, f),
        None => (rest, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err("expected digits");
    }
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int_part) || !all_digits(frac_part) {
        return Err("expected an optional sign, digits and at most one decimal point (no exponent, no separators)");
    }
    let mut digits = String::with_capacity(int_part.len() + frac_part.len());
    digits.push_str(int_part);
    digits.push_str(frac_part);
    let scale = i64::try_from(frac_part.len()).map_err(|_| "too many fraction digits")?;
    let magnitude = Integer::parse_bytes(digits.as_bytes(), 10).ok_or("expected digits")?;
    let unscaled = if negative { -magnitude } else { magnitude };
    Ok(Decimal::new(unscaled, scale))
}

/// Writes `value` in plain decimal notation (no exponent), keeping its scale.
fn write_plain_decimal(value: &Decimal, out: &mut String) -> Result<(), &'static str> {
    let (unscaled, scale) = value.as_bigint_and_exponent();
    if unscaled.sign() == num_bigint::Sign::Minus {
        out.push('-');
    }
    let digits = unscaled.magnitude().to_str_radix(10);
    if scale <= 0 {
        let zeros = scale.unsigned_abs();
        if digits == "0" {
            out.push('0');
            return Ok(());
        }
        if zeros > MAX_DECIMAL_PADDING {
            return Err("exponent too large to write in plain decimal notation");
        }
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', zeros as usize));
    } else {
        let scale = scale.unsigned_abs();
        let len = digits.len() as u64;
        if scale >= len {
            let zeros = scale - len;
            if zeros > MAX_DECIMAL_PADDING {
                return Err("exponent too small to write in plain decimal notation");
            }
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', zeros as usize));
            out.push_str(&digits);
        } else {
            let split = (len - scale) as usize;
            out.push_str(&digits[..split]);
            out.push('.');
            out.push_str(&digits[split..]);
        }
    }
    Ok(())
}

/// xs:decimal (XML Schema Part 2 §3.2.3): plain decimal notation, never an exponent; the scale is kept
/// (`1.50` stays `1.50`).
impl ToXmlText for Decimal {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        let mut s = String::new();
        write_plain_decimal(self, &mut s).map_err(|r| EncodeError::invalid_value("decimal", r))?;
        out.push_ascii_safe(&s);
        Ok(())
    }
}

/// xs:decimal (XML Schema Part 2 §3.2.3): lexical form `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`; an
/// exponent, a comma or inner spaces are errors.
impl FromXmlText for Decimal {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        let t = collapse(text);
        parse_decimal(t).map_err(|r| ValueError::new("decimal", t).because(r))
    }
}

// ---------------------------------------------------------------------------------------------------
// float, double

/// Checks the XSD float/double mantissa-exponent form
/// `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee][+-]?[0-9]+)?`.
fn is_float_literal(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut mantissa_digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        mantissa_digits += i - frac_start;
    }
    if mantissa_digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

macro_rules! floating {
    ($($ty:ty => $xsd:literal, $section:literal;)*) => {$(
        #[doc = concat!("xs:", $xsd, " (XML Schema Part 2 ", $section, "): `INF`, `-INF`, `NaN`, otherwise the shortest ")]
        #[doc = "form that reads back exactly: plain notation (`0.1`, `-0`, `123`) for magnitudes in"]
        #[doc = "`1e-6..1e16`, else exponent notation with one digit before the point (`1.0E300`, `2.5E-7`)."]
        impl ToXmlText for $ty {
            fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
                let v = *self;
                if v.is_nan() {
                    out.push_ascii_safe("NaN");
                    return Ok(());
                }
                if v.is_infinite() {
                    out.push_ascii_safe(if v > 0.0 { "INF" } else { "-INF" });
                    return Ok(());
                }
                let mut buf = AsciiBuf::<64>::new();
                let a = v.abs();
                let r = if a == 0.0 || (1e-6..1e16).contains(&a) {
                    write!(buf, "{v}")
                } else {
                    write!(buf, "{v:E}")
                };
                r.map_err(|_| EncodeError::invalid_value($xsd, "lexical form too long"))?;
                let s = buf.as_str();
                match s.split_once('E') {
                    // XSD 1.0 canonical style: the mantissa has a decimal point (`1.0E300`).
                    Some((m, e)) if !m.contains('.') => {
                        out.push_ascii_safe(m);
                        out.push_ascii_safe(".0E");
                        out.push_ascii_safe(e);
                    }
                    _ => out.push_ascii_safe(s),
                }
                Ok(())
            }
        }

        #[doc = concat!("xs:", $xsd, " (XML Schema Part 2 ", $section, "): decimal or exponent notation ")]
        #[doc = "(`[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([Ee][+-]?[0-9]+)?`), `INF`, `+INF`, `-INF` or `NaN`"]
        #[doc = "(case-sensitive). Rounded to nearest; a magnitude beyond the type's range reads as infinity"]
        #[doc = "(as XSD 1.1 §3.3.5 specifies)."]
        impl FromXmlText for $ty {
            fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
                let t = collapse(text);
                match t {
                    "INF" | "+INF" => return Ok(<$ty>::INFINITY),
                    "-INF" => return Ok(<$ty>::NEG_INFINITY),
                    "NaN" => return Ok(<$ty>::NAN),
                    _ => {}
                }
                if !is_float_literal(t) {
                    return Err(ValueError::new($xsd, t).because(
                        "expected a decimal or exponent number, INF, -INF or NaN",
                    ));
                }
                t.parse::<$ty>().map_err(|e| ValueError::new($xsd, t).because(e.to_string()))
            }
        }
    )*};
}

floating! {
    f32 => "float", "§3.2.4";
    f64 => "double", "§3.2.5";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::NoNamespaces;
    use crate::xml::{Name, XmlWriter};
    use proptest::prelude::*;
    use std::str::FromStr;

    fn write<T: ToXmlText + ?Sized>(v: &T) -> String {
        crate::types::testing::text_of(v, false)
    }

    fn write_attr<T: ToXmlText + ?Sized>(v: &T) -> String {
        let mut w = XmlWriter::new();
        w.start_element(Name::unqualified("v")).unwrap();
        w.attribute_value(Name::unqualified("a"), v).unwrap();
        w.end_element().unwrap();
        let s = w.into_string().unwrap();
        s.strip_prefix("<v a=\"")
            .unwrap()
            .strip_suffix("\"/>")
            .unwrap()
            .to_owned()
    }

    fn read<T: FromXmlText>(s: &str) -> Result<T, ValueError> {
        T::from_xml_text(s, &NoNamespaces)
    }

    fn err<T: FromXmlText + fmt::Debug>(s: &str) -> String {
        read::<T>(s).unwrap_err().to_string()
    }

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    // ---- boolean

    #[test]
    fn boolean_reads_all_four_forms() {
        assert!(read::<bool>("true").unwrap());
        assert!(read::<bool>("1").unwrap());
        assert!(!read::<bool>("false").unwrap());
        assert!(!read::<bool>(" \n0\t").unwrap());
    }

    #[test]
    fn boolean_rejects_other_forms() {
        for s in ["TRUE", "True", "yes", "", "01", "t", "tr ue"] {
            let e = err::<bool>(s);
            assert!(e.starts_with("invalid boolean"), "{e}");
        }
    }

    #[test]
    fn boolean_writes_canonical() {
        assert_eq!(write(&true), "true");
        assert_eq!(write(&false), "false");
        assert_eq!(write_attr(&true), "true");
    }

    // ---- bounded integers

    #[test]
    fn integers_read_signs_and_leading_zeros() {
        assert_eq!(read::<i32>("+42").unwrap(), 42);
        assert_eq!(read::<i32>("-42").unwrap(), -42);
        assert_eq!(read::<i32>("  007 ").unwrap(), 7);
        assert_eq!(read::<u8>("-0").unwrap(), 0);
        assert_eq!(read::<u64>("+0").unwrap(), 0);
        assert_eq!(read::<i8>("-128").unwrap(), -128);
        assert_eq!(read::<i64>("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(read::<u64>("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(
            read::<i16>("000000000000000000000000000000000000000000001").unwrap(),
            1
        );
    }

    #[test]
    fn integers_report_range() {
        assert_eq!(
            err::<i32>("3000000000"),
            "invalid int \"3000000000\": out of range -2147483648..=2147483647"
        );
        assert_eq!(
            err::<i8>("128"),
            "invalid byte \"128\": out of range -128..=127"
        );
        assert_eq!(
            err::<i16>("-32769"),
            "invalid short \"-32769\": out of range -32768..=32767"
        );
        assert!(err::<i64>("9223372036854775808").starts_with("invalid long"));
        assert_eq!(
            err::<u8>("256"),
            "invalid unsignedByte \"256\": out of range 0..=255"
        );
        assert_eq!(
            err::<u16>("-1"),
            "invalid unsignedShort \"-1\": out of range 0..=65535"
        );
        assert!(err::<u32>("4294967296").starts_with("invalid unsignedInt"));
        assert!(err::<u64>("18446744073709551616").starts_with("invalid unsignedLong"));
        // Far beyond i128 too.
        assert!(err::<u64>(&"9".repeat(100)).contains("out of range 0..=18446744073709551615"));
    }

    #[test]
    fn integers_reject_other_characters() {
        for s in [
            "", "+", "-", "1.0", "1e3", "0x10", "1_000", "1 000", "--1", "+-1", " 1 2 ", "١", "1,5",
        ] {
            let e = err::<i32>(s);
            assert!(e.starts_with("invalid int"), "{s:?}: {e}");
        }
    }

    #[test]
    fn integers_write_plain() {
        assert_eq!(write(&-128i8), "-128");
        assert_eq!(write(&0u8), "0");
        assert_eq!(write(&i64::MIN), "-9223372036854775808");
        assert_eq!(write(&u64::MAX), "18446744073709551615");
        assert_eq!(write_attr(&42i32), "42");
    }

    // ---- integer

    #[test]
    fn big_integer_reads_and_writes() {
        let big = "123456789012345678901234567890123456789012345678901234567890";
        let v: Integer = read(big).unwrap();
        assert_eq!(write(&v), big);
        let v: Integer = read(&format!(" -{big} ")).unwrap();
        assert_eq!(write(&v), format!("-{big}"));
        assert_eq!(write(&read::<Integer>("+000").unwrap()), "0");
        assert_eq!(write(&read::<Integer>("-0").unwrap()), "0");
        for s in ["", "-", "1.5", "1e3", "1_000", "abc", "1 2"] {
            assert!(err::<Integer>(s).starts_with("invalid integer"), "{s:?}");
        }
    }

    // ---- decimal

    #[test]
    fn decimal_reads_lexical_forms() {
        assert_eq!(read::<Decimal>("1.5").unwrap(), dec("1.5"));
        assert_eq!(read::<Decimal>("+1.5").unwrap(), dec("1.5"));
        assert_eq!(read::<Decimal>("-.5").unwrap(), dec("-0.5"));
        assert_eq!(read::<Decimal>("5.").unwrap(), dec("5"));
        assert_eq!(read::<Decimal>("  0012.3400\n").unwrap(), dec("12.34"));
        assert_eq!(read::<Decimal>("-0").unwrap(), dec("0"));
        let precise = "3.14159265358979323846264338327950288419716939937510582097494459";
        assert_eq!(write(&read::<Decimal>(precise).unwrap()), precise);
    }

    #[test]
    fn decimal_rejects_non_lexical_forms() {
        for s in [
            "1,5", "1e3", "1E3", "1.5e-3", "", ".", "+", "-", "+.", "1 000", "1. 5", "1.2.3",
            "--1", "NaN", "INF", "1_000", "0x1A", "١",
        ] {
            let e = err::<Decimal>(s);
            assert!(e.starts_with("invalid decimal"), "{s:?}: {e}");
        }
        assert!(
            err::<Decimal>("1,5").contains("no exponent"),
            "{}",
            err::<Decimal>("1,5")
        );
    }

    #[test]
    fn decimal_writes_plain_notation_keeping_scale() {
        assert_eq!(write(&dec("1.50")), "1.50");
        assert_eq!(write(&dec("-0.5")), "-0.5");
        assert_eq!(write(&dec("0")), "0");
        assert_eq!(write(&dec("0.000")), "0.000");
        assert_eq!(write(&dec("1e3")), "1000");
        assert_eq!(write(&dec("0e5")), "0");
        assert_eq!(write(&dec("-12.3e-2")), "-0.123");
        assert_eq!(write(&dec("1e-30")), format!("0.{}1", "0".repeat(29)));
        assert_eq!(write(&dec("1e30")), format!("1{}", "0".repeat(30)));
        assert_eq!(write(&dec("-1.5e300")), format!("-15{}", "0".repeat(299)));
        assert_eq!(
            write(&dec("123.456e-1000")),
            format!("0.{}123456", "0".repeat(997))
        );
    }

    #[test]
    fn decimal_writing_agrees_with_bigdecimal_plain_string() {
        for s in [
            "1.50", "-0.5", "0", "1e3", "1e30", "1e-30", "-1e1001", "1e-2000", "123.456", "-7e-1",
        ] {
            assert_eq!(write(&dec(s)), dec(s).to_plain_string(), "{s}");
        }
    }

    #[test]
    fn decimal_refuses_absurd_exponents_when_writing() {
        let v = Decimal::new(Integer::from(1), -(1i64 << 40));
        let mut w = XmlWriter::new();
        w.start_element(Name::unqualified("v")).unwrap();
        let e = w.text_value(&v).unwrap_err();
        assert!(e.to_string().contains("decimal"), "{e}");
    }

    // ---- float, double

    #[test]
    fn double_reads_xsd_forms() {
        assert_eq!(read::<f64>("1.5").unwrap(), 1.5);
        assert_eq!(read::<f64>("-1E4").unwrap(), -1e4);
        assert_eq!(read::<f64>("1267.43233E12").unwrap(), 1267.43233e12);
        assert_eq!(read::<f64>("12.78e-2").unwrap(), 0.1278);
        assert_eq!(read::<f64>("12").unwrap(), 12.0);
        assert_eq!(read::<f64>("+.5").unwrap(), 0.5);
        assert_eq!(read::<f64>("5.").unwrap(), 5.0);
        assert_eq!(read::<f64>("1e+2").unwrap(), 100.0);
        assert_eq!(read::<f64>(" INF ").unwrap(), f64::INFINITY);
        assert_eq!(read::<f64>("+INF").unwrap(), f64::INFINITY);
        assert_eq!(read::<f64>("-INF").unwrap(), f64::NEG_INFINITY);
        assert!(read::<f64>("NaN").unwrap().is_nan());
        assert!(read::<f32>("NaN").unwrap().is_nan());
        assert_eq!(read::<f32>("-INF").unwrap(), f32::NEG_INFINITY);
        let z = read::<f64>("-0").unwrap();
        assert!(z == 0.0 && z.is_sign_negative());
        let z = read::<f32>("-0.0E0").unwrap();
        assert!(z == 0.0 && z.is_sign_negative());
        assert_eq!(read::<f64>("1e400").unwrap(), f64::INFINITY);
        assert_eq!(read::<f32>("16777217").unwrap(), 16777216.0);
    }

    #[test]
    fn double_rejects_rust_isms() {
        for s in [
            "inf",
            "-inf",
            "infinity",
            "Infinity",
            "+Infinity",
            "nan",
            "NAN",
            "-NaN",
            "+NaN",
            "",
            ".",
            "e5",
            "1e",
            "1e+",
            "1.5.5",
            "1,5",
            "0x10",
            "1_000",
            "1 5",
            "--1",
            "1d",
            "1f",
            "INF ",
            "E3",
        ] {
            if s == "INF " {
                continue; // collapse makes it valid
            }
            let e = err::<f64>(s);
            assert!(e.starts_with("invalid double"), "{s:?}: {e}");
            let e = err::<f32>(s);
            assert!(e.starts_with("invalid float"), "{s:?}: {e}");
        }
    }

    #[test]
    fn double_writes_special_values_and_short_forms() {
        assert_eq!(write(&f64::INFINITY), "INF");
        assert_eq!(write(&f64::NEG_INFINITY), "-INF");
        assert_eq!(write(&f64::NAN), "NaN");
        assert_eq!(write(&f32::NAN), "NaN");
        assert_eq!(write(&0.0f64), "0");
        assert_eq!(write(&-0.0f64), "-0");
        assert_eq!(write(&0.1f64), "0.1");
        assert_eq!(write(&0.1f32), "0.1");
        assert_eq!(write(&1.5f64), "1.5");
        assert_eq!(write(&123456.0f64), "123456");
        assert_eq!(write(&1e300f64), "1.0E300");
        assert_eq!(write(&-2.5e-7f64), "-2.5E-7");
        assert_eq!(write(&f64::MAX), "1.7976931348623157E308");
        assert_eq!(write(&f64::MIN_POSITIVE), "2.2250738585072014E-308");
        assert_eq!(write(&5e-324f64), "5.0E-324");
        assert_eq!(write(&f32::MAX), "3.4028235E38");
        assert_eq!(write(&1e16f64), "1.0E16");
        assert_eq!(write(&9999999999999998f64), "9999999999999998");
        let z = read::<f64>(&write(&-0.0f64)).unwrap();
        assert!(z.is_sign_negative());
    }

    // ---- round trips

    fn round_trip<T: ToXmlText + FromXmlText>(v: &T) -> T {
        let s = write(v);
        read::<T>(&s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    /// One round-trip property per type: written, read back, equal.
    macro_rules! round_trip_properties {
        ($($name:ident: $t:ty),* $(,)?) => {
            proptest! {
                $(
                    #[test]
                    fn $name(v: $t) { prop_assert_eq!(round_trip(&v), v); }
                )*
            }
        };
    }

    round_trip_properties!(
        prop_i8: i8,
        prop_i16: i16,
        prop_i32: i32,
        prop_i64: i64,
        prop_u8: u8,
        prop_u16: u16,
        prop_u32: u32,
        prop_u64: u64,
        prop_bool: bool,
    );

    /// One round-trip property per float type, over its whole bit space: the same bits back
    /// (any NaN as a NaN).
    macro_rules! float_round_trip_properties {
        ($($name:ident: $t:ty, $bits:ty);* $(;)?) => {
            proptest! {
                $(
                    #[test]
                    fn $name(bits: $bits) {
                        let v = <$t>::from_bits(bits);
                        let back = round_trip(&v);
                        if v.is_nan() {
                            prop_assert!(back.is_nan());
                        } else {
                            prop_assert_eq!(back.to_bits(), v.to_bits());
                        }
                    }
                )*
            }
        };
    }

    float_round_trip_properties!(prop_f64: f64, u64; prop_f32: f32, u32);

    proptest! {
        #[test]
        fn prop_i64_matches_std(s in "[+-]?[0-9]{1,25}") {
            let ours = read::<i64>(&s).ok();
            let std = s.parse::<i64>().ok();
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn prop_integer(digits in "[1-9][0-9]{0,80}", negative: bool) {
            let text = if negative { format!("-{digits}") } else { digits.clone() };
            let v: Integer = read(&text).unwrap();
            prop_assert_eq!(write(&v), text);
            prop_assert_eq!(round_trip(&v), v);
        }

        #[test]
        fn prop_decimal(unscaled in any::<i128>(), scale in -60i64..60) {
            let v = Decimal::new(Integer::from(unscaled), scale);
            let text = write(&v);
            prop_assert!(!text.contains(['e', 'E']), "{}", text);
            prop_assert_eq!(&text, &v.to_plain_string());
            let back: Decimal = read(&text).unwrap();
            prop_assert_eq!(&back, &v);
            if scale >= 0 {
                // Scale is kept exactly.
                prop_assert_eq!(back.as_bigint_and_exponent(), v.as_bigint_and_exponent());
            }
        }

        #[test]
        fn prop_decimal_text(text in "[+-]?([0-9]{1,30}(\\.[0-9]{0,30})?|\\.[0-9]{1,30})") {
            let v: Decimal = read(&text).unwrap();
            let again: Decimal = read(&write(&v)).unwrap();
            prop_assert_eq!(again, v);
        }

        #[test]
        fn prop_f64_text_is_xsd_lexical(v: f64) {
            let s = write(&v);
            prop_assert!(s == "NaN" || s == "INF" || s == "-INF" || is_float_literal(&s), "{}", s);
            prop_assert!(s.len() <= 26, "{}", s);
        }
    }
}
