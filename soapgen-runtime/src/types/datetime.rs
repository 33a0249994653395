//! Date and time built-in types (XML Schema Part 2 §3.2.6–§3.2.14), without a date library.
//!
//! The types keep what the lexical form says: the time-zone offset as written (or its absence), the
//! fractional seconds to the nanosecond, duration components as given (`PT90M` stays 90 minutes).
//! Reading applies the `collapse` whiteSpace facet and follows XML Schema 1.0 (Second Edition):
//!
//! - years have at least four digits, no leading zero beyond four, and there is no year `0000`;
//! - `24:00:00` (end of day) is accepted and normalised to `00:00:00` of the next day (§3.2.7.2:
//!   the canonical representation of midnight is `00:00:00`), so `hour` is always `0..=23`;
//! - seconds are `00`–`59` (no leap seconds); fractional seconds beyond nine digits are accepted only
//!   if the extra digits are zeros (a value is never silently truncated);
//! - a time-zone offset is `Z` or `±hh:mm` within `-14:00..=+14:00`; `+00:00` and `-00:00` read as
//!   UTC and are written `Z`.
//!
//! Writing produces the canonical form of the value as stored, with the offset as given (not
//! normalised to UTC): `2026-11-30T10:00:00.5+05:30`. A value whose fields are out of range (month 13)
//! is refused with an [`EncodeError`].

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use super::numeric::AsciiBuf;
use super::{collapse, FromXmlText, PrefixResolver, ToXmlText};
use crate::error::{EncodeError, ValueError};
use crate::xml::TextOut;

type Reason = Cow<'static, str>;

// ---------------------------------------------------------------------------------------------------
// TimezoneOffset

/// A time-zone offset (XML Schema Part 2 §3.2.7.3): lexical form `Z` or `(+|-)hh:mm`, in
/// `-14:00..=+14:00`.
///
/// Stored as minutes east of UTC; `Z`, `+00:00` and `-00:00` are all offset 0, written `Z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimezoneOffset {
    /// Minutes east of UTC, `-840..=840` (`+05:30` is 330, `-08:00` is -480).
    pub minutes: i16,
}

impl TimezoneOffset {
    /// UTC (`Z`).
    pub const UTC: TimezoneOffset = TimezoneOffset { minutes: 0 };

    /// The largest offset magnitude XSD allows, 14 hours (§3.2.7.3), in minutes.
    pub const MAX_MINUTES: i16 = 14 * 60;

    /// The offset `minutes` east of UTC, or `None` outside `-14:00..=+14:00`.
    pub fn from_minutes(minutes: i32) -> Option<TimezoneOffset> {
        let m = i16::try_from(minutes).ok()?;
        (-Self::MAX_MINUTES..=Self::MAX_MINUTES)
            .contains(&m)
            .then_some(TimezoneOffset { minutes: m })
    }

    /// Whether this is UTC (offset 0).
    pub fn is_utc(&self) -> bool {
        self.minutes == 0
    }

    fn check(&self) -> Result<(), Reason> {
        if (-Self::MAX_MINUTES..=Self::MAX_MINUTES).contains(&self.minutes) {
            Ok(())
        } else {
            Err(format!(
                "time-zone offset of {} minutes out of range -14:00..=+14:00",
                self.minutes
            )
            .into())
        }
    }
}

/// The lexical form `Z` or `(+|-)hh:mm` (XML Schema Part 2 §3.2.7.3).
impl fmt::Display for TimezoneOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.minutes == 0 {
            return f.write_str("Z");
        }
        let sign = if self.minutes < 0 { '-' } else { '+' };
        let m = self.minutes.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", m / 60, m % 60)
    }
}

fn fmt_offset(f: &mut fmt::Formatter<'_>, offset: &Option<TimezoneOffset>) -> fmt::Result {
    match offset {
        Some(o) => fmt::Display::fmt(o, f),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------------
// Parsing helpers

/// A cursor over the (collapsed) text of a date/time value.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str) -> Self {
        Cursor {
            s: s.as_bytes(),
            i: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// What is at the cursor, for error messages.
    fn found(&self) -> String {
        match std::str::from_utf8(&self.s[self.i.min(self.s.len())..])
            .ok()
            .and_then(|r| r.chars().next())
        {
            Some(c) => format!("found {c:?} at offset {}", self.i),
            None => "found the end of the text".to_owned(),
        }
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), Reason> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(format!("expected '{}' {what}, {}", b as char, self.found()).into())
        }
    }

    fn digits(&mut self) -> &'a [u8] {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        &self.s[start..self.i]
    }

    /// Exactly two digits, for `what` (`month`, `hour`…).
    fn two_digits(&mut self, what: &str) -> Result<u32, Reason> {
        let d = self.digits();
        if d.len() != 2 {
            self.i -= d.len();
            return Err(format!("expected two digits for the {what}, {}", self.found()).into());
        }
        Ok(u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    }

    fn end(&self) -> Result<(), Reason> {
        if self.at_end() {
            Ok(())
        } else {
            Err(format!("unexpected characters: {}", self.found()).into())
        }
    }
}

/// Runs `f` over the collapsed `text` and requires it to consume everything.
fn parse_with<T>(
    type_name: &'static str,
    text: &str,
    f: impl FnOnce(&mut Cursor<'_>) -> Result<T, Reason>,
) -> Result<T, ValueError> {
    let t = collapse(text);
    let mut c = Cursor::new(t);
    f(&mut c)
        .and_then(|v| c.end().map(|()| v))
        .map_err(|r| ValueError::new(type_name, t).because(r))
}

/// `-?yyyy` with at least four digits, no leading zero beyond four, not `0000`.
fn parse_year(c: &mut Cursor<'_>) -> Result<i32, Reason> {
    let negative = c.eat(b'-');
    let d = c.digits();
    if d.len() < 4 {
        c.i -= d.len();
        return Err(format!("expected a year of at least four digits, {}", c.found()).into());
    }
    if d.len() > 4 && d[0] == b'0' {
        return Err("a year of more than four digits must not start with 0".into());
    }
    let year = d
        .iter()
        .try_fold(0i64, |acc, &b| {
            acc.checked_mul(10)?.checked_add(i64::from(b - b'0'))
        })
        .map(|m| if negative { -m } else { m })
        .and_then(|y| i32::try_from(y).ok());
    match year {
        None => Err("year out of range".into()),
        Some(0) => Err("year 0000 is not allowed (XML Schema 1.0 has no year zero)".into()),
        Some(y) => Ok(y),
    }
}

/// The Gregorian leap-year rule applied to the year number as written (XML Schema 1.0 Appendix E; as
/// in XSD 1.0, with no year zero, `-0004` is a leap year and `-0001` is not).
fn is_leap_year(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1–12) of `year` (XML Schema Part 2 Appendix E, maximumDayInMonthFor).
fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

fn check_year(year: i32) -> Result<(), Reason> {
    if year == 0 {
        Err("year 0000 is not allowed (XML Schema 1.0 has no year zero)".into())
    } else {
        Ok(())
    }
}

fn check_month(month: u32) -> Result<(), Reason> {
    if (1..=12).contains(&month) {
        Ok(())
    } else {
        Err(format!("month {month} out of range 1..=12").into())
    }
}

/// Checks a day of a month; with `year: None` (gMonthDay) February has 29 days.
fn check_day(year: Option<i32>, month: u32, day: u32) -> Result<(), Reason> {
    let max = match year {
        Some(y) => days_in_month(y, month),
        None => days_in_month(4, month),
    };
    if (1..=max).contains(&day) {
        Ok(())
    } else {
        Err(match year {
            Some(y) => format!("day {day} out of range 1..={max} for month {month} of year {y}"),
            None => format!("day {day} out of range 1..={max} for month {month}"),
        }
        .into())
    }
}

fn check_date(year: i32, month: u32, day: u32) -> Result<(), Reason> {
    check_year(year)?;
    check_month(month)?;
    check_day(Some(year), month, day)
}

fn check_time(hour: u32, minute: u32, second: u32, nanosecond: u32) -> Result<(), Reason> {
    if hour > 23 {
        return Err(format!("hour {hour} out of range 0..=23").into());
    }
    if minute > 59 {
        return Err(format!("minute {minute} out of range 0..=59").into());
    }
    if second > 59 {
        return Err(format!("second {second} out of range 0..=59").into());
    }
    if nanosecond > 999_999_999 {
        return Err(format!("nanosecond {nanosecond} out of range 0..=999999999").into());
    }
    Ok(())
}

fn check_offset(offset: &Option<TimezoneOffset>) -> Result<(), Reason> {
    offset.as_ref().map_or(Ok(()), TimezoneOffset::check)
}

/// `-?yyyy-mm-dd`, validated.
fn parse_date(c: &mut Cursor<'_>) -> Result<(i32, u32, u32), Reason> {
    let year = parse_year(c)?;
    c.expect(b'-', "after the year")?;
    let month = c.two_digits("month")?;
    check_month(month)?;
    c.expect(b'-', "after the month")?;
    let day = c.two_digits("day")?;
    check_day(Some(year), month, day)?;
    Ok((year, month, day))
}

/// Fractional seconds after the `.`: at least one digit, nanosecond precision.
fn parse_fraction(c: &mut Cursor<'_>) -> Result<u32, Reason> {
    let d = c.digits();
    if d.is_empty() {
        return Err(format!("expected digits after the decimal point, {}", c.found()).into());
    }
    if d.len() > 9 && d[9..].iter().any(|&b| b != b'0') {
        return Err(
            "fractional seconds are limited to nanosecond precision (9 digits); the value would be truncated"
                .into(),
        );
    }
    let mut nanos = 0u32;
    for i in 0..9 {
        nanos = nanos * 10 + d.get(i).map_or(0, |&b| u32::from(b - b'0'));
    }
    Ok(nanos)
}

/// `hh:mm:ss(.s+)?`, validated. Returns `(hour, minute, second, nanosecond)`, with hour 24 only for
/// `24:00:00`.
fn parse_time(c: &mut Cursor<'_>) -> Result<(u32, u32, u32, u32), Reason> {
    let hour = c.two_digits("hour")?;
    c.expect(b':', "after the hour")?;
    let minute = c.two_digits("minute")?;
    c.expect(b':', "after the minutes")?;
    let second = c.two_digits("second")?;
    let nanosecond = if c.eat(b'.') { parse_fraction(c)? } else { 0 };
    if hour == 24 {
        if minute != 0 || second != 0 || nanosecond != 0 {
            return Err("hour 24 is allowed only in 24:00:00".into());
        }
    } else {
        check_time(hour, minute, second, nanosecond)?;
    }
    Ok((hour, minute, second, nanosecond))
}

/// An optional `Z` or `(+|-)hh:mm` at the end.
fn parse_offset(c: &mut Cursor<'_>) -> Result<Option<TimezoneOffset>, Reason> {
    let sign = match c.peek() {
        None => return Ok(None),
        Some(b'Z') => {
            c.i += 1;
            return Ok(Some(TimezoneOffset::UTC));
        }
        Some(b'+') => 1,
        Some(b'-') => -1,
        Some(_) => {
            return Err(format!(
                "expected a time-zone offset (Z, +hh:mm or -hh:mm), {}",
                c.found()
            )
            .into())
        }
    };
    c.i += 1;
    let hours = c.two_digits("time-zone hours")?;
    c.expect(b':', "in the time-zone offset")?;
    let minutes = c.two_digits("time-zone minutes")?;
    if minutes > 59 {
        return Err(format!("time-zone minutes {minutes} out of range 0..=59").into());
    }
    if hours > 14 || (hours == 14 && minutes != 0) {
        return Err("time-zone offset out of range -14:00..=+14:00".into());
    }
    let total = (hours * 60 + minutes) as i16 * sign;
    Ok(Some(TimezoneOffset { minutes: total }))
}

/// The day after `year-month-day` (XML Schema 1.0 has no year 0: after -0001-12-31 comes 0001-01-01).
fn next_day(year: i32, month: u32, day: u32) -> Result<(i32, u32, u32), Reason> {
    if day < days_in_month(year, month) {
        return Ok((year, month, day + 1));
    }
    if month < 12 {
        return Ok((year, month + 1, 1));
    }
    let next_year = match year {
        -1 => 1,
        y => y.checked_add(1).ok_or("year out of range")?,
    };
    Ok((next_year, 1, 1))
}

/// Writes `-?yyyy` (at least four digits).
fn fmt_year(f: &mut fmt::Formatter<'_>, year: i32) -> fmt::Result {
    if year < 0 {
        f.write_char('-')?;
    }
    write!(f, "{:04}", year.unsigned_abs())
}

/// Writes `.fraction` without trailing zeros, nothing for 0.
fn fmt_fraction(f: &mut fmt::Formatter<'_>, nanosecond: u32) -> fmt::Result {
    if nanosecond == 0 {
        return Ok(());
    }
    let mut n = nanosecond;
    let mut width = 9;
    while n.is_multiple_of(10) {
        n /= 10;
        width -= 1;
    }
    write!(f, ".{n:0width$}")
}

fn fmt_time(f: &mut fmt::Formatter<'_>, h: u32, m: u32, s: u32, ns: u32) -> fmt::Result {
    pad2(f, h)?;
    f.write_char(':')?;
    pad2(f, m)?;
    f.write_char(':')?;
    pad2(f, s)?;
    fmt_fraction(f, ns)
}

/// Writes `v` as two digits (`{v:02}` without the formatting machinery; wider values in full).
fn pad2(f: &mut fmt::Formatter<'_>, v: u32) -> fmt::Result {
    if v < 100 {
        let d = [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8];
        f.write_str(std::str::from_utf8(&d).unwrap_or("00"))
    } else {
        write!(f, "{v:02}")
    }
}

/// Validates with `check`, then writes the `Display` form.
fn write_checked<T: fmt::Display>(
    out: &mut TextOut<'_>,
    type_name: &str,
    value: &T,
    check: Result<(), Reason>,
) -> Result<(), EncodeError> {
    check.map_err(|r| EncodeError::invalid_value(type_name, &r))?;
    let mut buf = AsciiBuf::<192>::new();
    write!(buf, "{value}")
        .map_err(|_| EncodeError::invalid_value(type_name, "lexical form too long"))?;
    out.push_ascii_safe(buf.as_str());
    Ok(())
}

/// Implements `ToXmlText`, `FromXmlText` and `FromStr` for a type with `Display`, `check` and `parse`.
macro_rules! simple_type {
    ($ty:ident, $xsd:literal) => {
        impl ToXmlText for $ty {
            fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
                write_checked(out, $xsd, self, self.check())
            }
        }

        impl FromXmlText for $ty {
            fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
                parse_with($xsd, text, $ty::parse)
            }
        }

        /// Parses the lexical form (surrounding XML whitespace is ignored), as
        /// [`FromXmlText`] does.
        impl FromStr for $ty {
            type Err = ValueError;

            fn from_str(s: &str) -> Result<Self, ValueError> {
                parse_with($xsd, s, $ty::parse)
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------------
// DateTime

/// xs:dateTime (XML Schema Part 2 §3.2.7): lexical form `-?yyyy-mm-ddThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?`.
///
/// The offset is kept as given (`None` for a local time with no zone). `24:00:00` reads as `00:00:00`
/// of the next day, so `hour` is `0..=23`. Fractional seconds are kept to the nanosecond.
///
/// ```
/// use soapgen_runtime::types::{DateTime, TimezoneOffset};
/// let t: DateTime = "2026-11-30T10:00:00.50+05:30".parse()?;
/// assert_eq!(t.nanosecond, 500_000_000);
/// assert_eq!(t.offset, TimezoneOffset::from_minutes(330));
/// assert_eq!(t.to_string(), "2026-11-30T10:00:00.5+05:30");
/// # Ok::<(), soapgen_runtime::ValueError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateTime {
    /// Year; negative for BCE, never 0 (XML Schema 1.0: `-0001` precedes `0001`).
    pub year: i32,
    /// Month, `1..=12`.
    pub month: u32,
    /// Day of the month, `1..=` the month's length (29 February only in leap years).
    pub day: u32,
    /// Hour, `0..=23`.
    pub hour: u32,
    /// Minute, `0..=59`.
    pub minute: u32,
    /// Second, `0..=59` (no leap seconds).
    pub second: u32,
    /// Fraction of the second in nanoseconds, `0..=999_999_999`.
    pub nanosecond: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl DateTime {
    /// The date part.
    pub fn date(&self) -> Date {
        Date {
            year: self.year,
            month: self.month,
            day: self.day,
            offset: self.offset,
        }
    }

    /// The time-of-day part.
    pub fn time(&self) -> Time {
        Time {
            hour: self.hour,
            minute: self.minute,
            second: self.second,
            nanosecond: self.nanosecond,
            offset: self.offset,
        }
    }

    fn check(&self) -> Result<(), Reason> {
        check_date(self.year, self.month, self.day)?;
        check_time(self.hour, self.minute, self.second, self.nanosecond)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        let (mut year, mut month, mut day) = parse_date(c)?;
        c.expect(b'T', "between the date and the time")?;
        let (mut hour, minute, second, nanosecond) = parse_time(c)?;
        let offset = parse_offset(c)?;
        if hour == 24 {
            (year, month, day) = next_day(year, month, day)?;
            hour = 0;
        }
        Ok(DateTime {
            year,
            month,
            day,
            hour,
            minute,
            second,
            nanosecond,
            offset,
        })
    }
}

/// The canonical lexical form, `yyyy-mm-ddThh:mm:ss` with the fraction (no trailing zeros) and the
/// offset as stored (XML Schema Part 2 §3.2.7.2).
impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_year(f, self.year)?;
        f.write_char('-')?;
        pad2(f, self.month)?;
        f.write_char('-')?;
        pad2(f, self.day)?;
        f.write_char('T')?;
        fmt_time(f, self.hour, self.minute, self.second, self.nanosecond)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(DateTime, "dateTime");

// ---------------------------------------------------------------------------------------------------
// Date

/// xs:date (XML Schema Part 2 §3.2.9): lexical form `-?yyyy-mm-dd(Z|(+|-)hh:mm)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Date {
    /// Year; negative for BCE, never 0.
    pub year: i32,
    /// Month, `1..=12`.
    pub month: u32,
    /// Day of the month, `1..=` the month's length.
    pub day: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl Date {
    fn check(&self) -> Result<(), Reason> {
        check_date(self.year, self.month, self.day)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        let (year, month, day) = parse_date(c)?;
        let offset = parse_offset(c)?;
        Ok(Date {
            year,
            month,
            day,
            offset,
        })
    }
}

/// The canonical lexical form `yyyy-mm-dd` plus the offset (XML Schema Part 2 §3.2.9.2).
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_year(f, self.year)?;
        write!(f, "-{:02}-{:02}", self.month, self.day)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(Date, "date");

// ---------------------------------------------------------------------------------------------------
// Time

/// xs:time (XML Schema Part 2 §3.2.8): lexical form `hh:mm:ss(.s+)?(Z|(+|-)hh:mm)?`.
///
/// `24:00:00` reads as `00:00:00`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Time {
    /// Hour, `0..=23`.
    pub hour: u32,
    /// Minute, `0..=59`.
    pub minute: u32,
    /// Second, `0..=59`.
    pub second: u32,
    /// Fraction of the second in nanoseconds, `0..=999_999_999`.
    pub nanosecond: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl Time {
    fn check(&self) -> Result<(), Reason> {
        check_time(self.hour, self.minute, self.second, self.nanosecond)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        let (hour, minute, second, nanosecond) = parse_time(c)?;
        let offset = parse_offset(c)?;
        Ok(Time {
            hour: hour % 24,
            minute,
            second,
            nanosecond,
            offset,
        })
    }
}

/// The canonical lexical form `hh:mm:ss` with the fraction (no trailing zeros) plus the offset
/// (XML Schema Part 2 §3.2.8.2).
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_time(f, self.hour, self.minute, self.second, self.nanosecond)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(Time, "time");

// ---------------------------------------------------------------------------------------------------
// Duration

/// xs:duration (XML Schema Part 2 §3.2.6): lexical form
/// `-?P(nY)?(nM)?(nD)?(T(nH)?(nM)?(n(.n+)?S)?)?` with at least one component and no `T` without a
/// time component.
///
/// Components are kept as given, not normalised (`PT90M` stays 90 minutes; a month has no fixed
/// length in days). A zero duration is never `negative` when read (`-PT0S` reads as `PT0S`).
/// Written with zero components omitted, `PT0S` for zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Duration {
    /// Whether the duration is negative (a leading `-`).
    pub negative: bool,
    /// Years (`nY`).
    pub years: u64,
    /// Months (`nM` before `T`).
    pub months: u64,
    /// Days (`nD`).
    pub days: u64,
    /// Hours (`nH`).
    pub hours: u64,
    /// Minutes (`nM` after `T`).
    pub minutes: u64,
    /// Whole seconds (`nS`).
    pub seconds: u64,
    /// Fraction of a second in nanoseconds, `0..=999_999_999`.
    pub nanoseconds: u32,
}

impl Duration {
    /// A positive duration of `d`'s seconds and nanoseconds (`PT90.5S` for 90.5 s).
    pub fn from_std(d: std::time::Duration) -> Duration {
        Duration {
            seconds: d.as_secs(),
            nanoseconds: d.subsec_nanos(),
            ..Duration::default()
        }
    }

    /// The duration as a [`std::time::Duration`], counting a day as 86 400 seconds; `None` if it is
    /// negative, has years or months (which have no fixed length), or overflows.
    pub fn to_std(&self) -> Option<std::time::Duration> {
        if (self.negative && !self.is_zero()) || self.years != 0 || self.months != 0 {
            return None;
        }
        let secs = self
            .days
            .checked_mul(86_400)?
            .checked_add(self.hours.checked_mul(3_600)?)?
            .checked_add(self.minutes.checked_mul(60)?)?
            .checked_add(self.seconds)?;
        if self.nanoseconds > 999_999_999 {
            return None;
        }
        Some(std::time::Duration::new(secs, self.nanoseconds))
    }

    /// Whether every component is zero.
    pub fn is_zero(&self) -> bool {
        self.years == 0
            && self.months == 0
            && self.days == 0
            && self.hours == 0
            && self.minutes == 0
            && self.seconds == 0
            && self.nanoseconds == 0
    }

    fn check(&self) -> Result<(), Reason> {
        if self.nanoseconds > 999_999_999 {
            return Err(format!(
                "nanoseconds {} out of range 0..=999999999",
                self.nanoseconds
            )
            .into());
        }
        Ok(())
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        fn number(d: &[u8]) -> Result<u64, Reason> {
            d.iter()
                .try_fold(0u64, |acc, &b| {
                    acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
                })
                .ok_or_else(|| {
                    "duration component too large (more than 18446744073709551615)".into()
                })
        }
        fn bad_designator(c: &Cursor<'_>, allowed: &[u8], order: &str) -> Reason {
            let allowed: Vec<String> = allowed
                .iter()
                .map(|&d| format!("'{}'", d as char))
                .collect();
            let allowed = if allowed.is_empty() {
                "no further component".to_owned()
            } else {
                allowed.join(" or ")
            };
            format!("expected {allowed} after the number (components in the order {order}, each at most once), {}", c.found()).into()
        }
        let mut v = Duration {
            negative: c.eat(b'-'),
            ..Duration::default()
        };
        c.expect(b'P', "to start a duration")?;
        let mut any = false;
        // Date part: Y, M, D in this order, each at most once.
        let mut next = 0;
        while c.peek().is_some_and(|b| b.is_ascii_digit()) {
            let n = number(c.digits())?;
            let designators = b"YMD";
            let found = c.peek();
            let Some(k) = designators[next..].iter().position(|&d| Some(d) == found) else {
                return Err(bad_designator(c, &designators[next..], "Y, M, D"));
            };
            c.i += 1;
            let k = next + k;
            match k {
                0 => v.years = n,
                1 => v.months = n,
                _ => v.days = n,
            }
            next = k + 1;
            any = true;
        }
        if c.eat(b'T') {
            let mut any_time = false;
            let mut next = 0;
            while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                let n = number(c.digits())?;
                let fraction = if c.eat(b'.') {
                    Some(parse_fraction(c)?)
                } else {
                    None
                };
                let designators = b"HMS";
                let found = c.peek();
                let Some(k) = designators[next..].iter().position(|&d| Some(d) == found) else {
                    return Err(bad_designator(c, &designators[next..], "H, M, S"));
                };
                let k = next + k;
                if fraction.is_some() && k != 2 {
                    return Err("only seconds may have a fraction".into());
                }
                c.i += 1;
                match k {
                    0 => v.hours = n,
                    1 => v.minutes = n,
                    _ => {
                        v.seconds = n;
                        v.nanoseconds = fraction.unwrap_or(0);
                    }
                }
                next = k + 1;
                any_time = true;
            }
            if !any_time {
                return Err(
                    "'T' must be followed by at least one of hours, minutes or seconds".into(),
                );
            }
            any = true;
        }
        if !any {
            return Err(format!("expected at least one component after 'P', {}", c.found()).into());
        }
        if v.is_zero() {
            v.negative = false;
        }
        Ok(v)
    }
}

impl From<std::time::Duration> for Duration {
    fn from(d: std::time::Duration) -> Self {
        Duration::from_std(d)
    }
}

/// The lexical form with zero components omitted (`P1Y2M3DT4H5M6.5S`, `-PT1S`), `PT0S` for zero
/// (XML Schema Part 2 §3.2.6.1).
impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("PT0S");
        }
        if self.negative {
            f.write_char('-')?;
        }
        f.write_char('P')?;
        for (n, d) in [(self.years, 'Y'), (self.months, 'M'), (self.days, 'D')] {
            if n != 0 {
                write!(f, "{n}{d}")?;
            }
        }
        if self.hours != 0 || self.minutes != 0 || self.seconds != 0 || self.nanoseconds != 0 {
            f.write_char('T')?;
            for (n, d) in [(self.hours, 'H'), (self.minutes, 'M')] {
                if n != 0 {
                    write!(f, "{n}{d}")?;
                }
            }
            if self.seconds != 0 || self.nanoseconds != 0 {
                write!(f, "{}", self.seconds)?;
                fmt_fraction(f, self.nanoseconds)?;
                f.write_char('S')?;
            }
        }
        Ok(())
    }
}

simple_type!(Duration, "duration");

// ---------------------------------------------------------------------------------------------------
// Gregorian fragments

/// xs:gYear (XML Schema Part 2 §3.2.11): lexical form `-?yyyy(Z|(+|-)hh:mm)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GYear {
    /// Year; negative for BCE, never 0.
    pub year: i32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl GYear {
    fn check(&self) -> Result<(), Reason> {
        check_year(self.year)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        let year = parse_year(c)?;
        let offset = parse_offset(c)?;
        Ok(GYear { year, offset })
    }
}

/// The lexical form `yyyy` plus the offset (XML Schema Part 2 §3.2.11.1).
impl fmt::Display for GYear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_year(f, self.year)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(GYear, "gYear");

/// xs:gYearMonth (XML Schema Part 2 §3.2.10): lexical form `-?yyyy-mm(Z|(+|-)hh:mm)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GYearMonth {
    /// Year; negative for BCE, never 0.
    pub year: i32,
    /// Month, `1..=12`.
    pub month: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl GYearMonth {
    fn check(&self) -> Result<(), Reason> {
        check_year(self.year)?;
        check_month(self.month)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        let year = parse_year(c)?;
        c.expect(b'-', "after the year")?;
        let month = c.two_digits("month")?;
        check_month(month)?;
        let offset = parse_offset(c)?;
        Ok(GYearMonth {
            year,
            month,
            offset,
        })
    }
}

/// The lexical form `yyyy-mm` plus the offset (XML Schema Part 2 §3.2.10.1).
impl fmt::Display for GYearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_year(f, self.year)?;
        write!(f, "-{:02}", self.month)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(GYearMonth, "gYearMonth");

/// xs:gMonth (XML Schema Part 2 §3.2.14): lexical form `--mm(Z|(+|-)hh:mm)?`.
///
/// The form `--mm--` of the XML Schema 1.0 first edition (corrected by erratum E2-12) is accepted
/// too; `--mm` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GMonth {
    /// Month, `1..=12`.
    pub month: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl GMonth {
    fn check(&self) -> Result<(), Reason> {
        check_month(self.month)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        c.expect(b'-', "to start a gMonth (--mm)")?;
        c.expect(b'-', "to start a gMonth (--mm)")?;
        let month = c.two_digits("month")?;
        check_month(month)?;
        // First-edition form `--mm--`: `--` can only be that, since an offset has digits after `-`.
        if c.s[c.i..].starts_with(b"--") {
            c.i += 2;
        }
        let offset = parse_offset(c)?;
        Ok(GMonth { month, offset })
    }
}

/// The lexical form `--mm` plus the offset (XML Schema Part 2 §3.2.14.1).
impl fmt::Display for GMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{:02}", self.month)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(GMonth, "gMonth");

/// xs:gMonthDay (XML Schema Part 2 §3.2.12): lexical form `--mm-dd(Z|(+|-)hh:mm)?`; `--02-29` is
/// allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GMonthDay {
    /// Month, `1..=12`.
    pub month: u32,
    /// Day of the month, `1..=` the month's longest length (29 for February).
    pub day: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl GMonthDay {
    fn check(&self) -> Result<(), Reason> {
        check_month(self.month)?;
        check_day(None, self.month, self.day)?;
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        c.expect(b'-', "to start a gMonthDay (--mm-dd)")?;
        c.expect(b'-', "to start a gMonthDay (--mm-dd)")?;
        let month = c.two_digits("month")?;
        check_month(month)?;
        c.expect(b'-', "after the month")?;
        let day = c.two_digits("day")?;
        check_day(None, month, day)?;
        let offset = parse_offset(c)?;
        Ok(GMonthDay { month, day, offset })
    }
}

/// The lexical form `--mm-dd` plus the offset (XML Schema Part 2 §3.2.12.1).
impl fmt::Display for GMonthDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{:02}-{:02}", self.month, self.day)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(GMonthDay, "gMonthDay");

/// xs:gDay (XML Schema Part 2 §3.2.13): lexical form `---dd(Z|(+|-)hh:mm)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GDay {
    /// Day of the month, `1..=31`.
    pub day: u32,
    /// Time-zone offset, `None` if the value has none.
    pub offset: Option<TimezoneOffset>,
}

impl GDay {
    fn check(&self) -> Result<(), Reason> {
        if !(1..=31).contains(&self.day) {
            return Err(format!("day {} out of range 1..=31", self.day).into());
        }
        check_offset(&self.offset)
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self, Reason> {
        for _ in 0..3 {
            c.expect(b'-', "to start a gDay (---dd)")?;
        }
        let day = c.two_digits("day")?;
        let v = GDay { day, offset: None };
        v.check()?;
        let offset = parse_offset(c)?;
        Ok(GDay { day, offset })
    }
}

/// The lexical form `---dd` plus the offset (XML Schema Part 2 §3.2.13.1).
impl fmt::Display for GDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "---{:02}", self.day)?;
        fmt_offset(f, &self.offset)
    }
}

simple_type!(GDay, "gDay");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::NoNamespaces;
    use crate::xml::{Name, XmlWriter};
    use proptest::prelude::*;

    fn write<T: ToXmlText + ?Sized>(v: &T) -> Result<String, EncodeError> {
        let mut w = XmlWriter::new();
        w.start_element(Name::unqualified("v")).unwrap();
        w.text_value(v)?;
        w.end_element().unwrap();
        let s = w.into_string().unwrap();
        Ok(s.strip_prefix("<v>")
            .unwrap()
            .strip_suffix("</v>")
            .unwrap()
            .to_owned())
    }

    fn read<T: FromXmlText>(s: &str) -> Result<T, ValueError> {
        T::from_xml_text(s, &NoNamespaces)
    }

    fn err<T: FromXmlText + fmt::Debug>(s: &str) -> String {
        match read::<T>(s) {
            Ok(v) => panic!("{s:?} was accepted as {v:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn tz(minutes: i32) -> Option<TimezoneOffset> {
        Some(TimezoneOffset::from_minutes(minutes).unwrap())
    }

    fn dt(s: &str) -> DateTime {
        read(s).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Reads `s` and writes it back.
    fn canon<T: FromXmlText + ToXmlText>(s: &str) -> String {
        let v: T = read(s).unwrap_or_else(|e| panic!("{e}"));
        write(&v).unwrap()
    }

    // ---- TimezoneOffset

    #[test]
    fn offsets() {
        assert_eq!(TimezoneOffset::from_minutes(841), None);
        assert_eq!(TimezoneOffset::from_minutes(-841), None);
        assert_eq!(TimezoneOffset::from_minutes(100_000), None);
        assert_eq!(tz(-840).unwrap().to_string(), "-14:00");
        assert_eq!(tz(330).unwrap().to_string(), "+05:30");
        assert_eq!(tz(-90).unwrap().to_string(), "-01:30");
        assert_eq!(TimezoneOffset::UTC.to_string(), "Z");
        assert!(TimezoneOffset::UTC.is_utc());
    }

    // ---- dateTime

    #[test]
    fn date_time_reads_fields() {
        let t = dt(" 2026-11-30T10:00:00.5+05:30\n");
        assert_eq!(
            t,
            DateTime {
                year: 2026,
                month: 11,
                day: 30,
                hour: 10,
                minute: 0,
                second: 0,
                nanosecond: 500_000_000,
                offset: tz(330),
            }
        );
        assert_eq!(dt("2001-10-26T21:32:52").offset, None);
        assert_eq!(dt("2001-10-26T21:32:52Z").offset, tz(0));
        assert_eq!(dt("2001-10-26T21:32:52+00:00").offset, tz(0));
        assert_eq!(dt("2001-10-26T21:32:52-00:00").offset, tz(0));
        assert_eq!(dt("2001-10-26T19:32:52-14:00").offset, tz(-840));
        assert_eq!(dt("2001-10-26T19:32:52.123456789Z").nanosecond, 123_456_789);
        assert_eq!(dt("2001-10-26T19:32:52.000000001Z").nanosecond, 1);
        assert_eq!(
            dt("2001-10-26T19:32:52.1234567890000Z").nanosecond,
            123_456_789
        );
        assert_eq!(dt("-0044-03-15T12:00:00").year, -44);
        assert_eq!(dt("12026-01-01T00:00:00").year, 12026);
        assert_eq!(dt("2147483647-12-31T23:59:59").year, i32::MAX);
        assert_eq!(dt("-2147483648-01-01T00:00:00").year, i32::MIN);
    }

    #[test]
    fn date_time_writes_canonical() {
        assert_eq!(
            canon::<DateTime>("2026-11-30T10:00:00.50+05:30"),
            "2026-11-30T10:00:00.5+05:30"
        );
        assert_eq!(
            canon::<DateTime>("2001-10-26T21:32:52.000"),
            "2001-10-26T21:32:52"
        );
        assert_eq!(
            canon::<DateTime>("2001-10-26T21:32:52+00:00"),
            "2001-10-26T21:32:52Z"
        );
        assert_eq!(
            canon::<DateTime>("2001-10-26T21:32:52.0120-08:00"),
            "2001-10-26T21:32:52.012-08:00"
        );
        assert_eq!(
            canon::<DateTime>("-0001-01-01T00:00:00Z"),
            "-0001-01-01T00:00:00Z"
        );
        assert_eq!(
            canon::<DateTime>("0001-01-01T00:00:00"),
            "0001-01-01T00:00:00"
        );
        assert_eq!(
            canon::<DateTime>("123456-01-01T00:00:00"),
            "123456-01-01T00:00:00"
        );
        let t = dt("2026-11-30T10:00:00.5+05:30");
        assert_eq!(t.to_string(), "2026-11-30T10:00:00.5+05:30");
        assert_eq!(
            "2026-11-30T10:00:00.5+05:30".parse::<DateTime>().unwrap(),
            t
        );
    }

    #[test]
    fn date_time_leap_years() {
        dt("2000-02-29T00:00:00");
        dt("2024-02-29T00:00:00");
        dt("-0004-02-29T00:00:00");
        assert!(err::<DateTime>("1900-02-29T00:00:00").contains("day 29 out of range 1..=28"));
        assert!(err::<DateTime>("2023-02-29T00:00:00").contains("out of range"));
        assert!(err::<DateTime>("2023-04-31T00:00:00").contains("day 31 out of range 1..=30"));
    }

    #[test]
    fn date_time_end_of_day_is_next_midnight() {
        assert_eq!(dt("2026-11-30T24:00:00Z"), dt("2026-12-01T00:00:00Z"));
        assert_eq!(dt("2026-12-31T24:00:00"), dt("2027-01-01T00:00:00"));
        assert_eq!(dt("2024-02-28T24:00:00"), dt("2024-02-29T00:00:00"));
        assert_eq!(
            dt("2024-02-29T24:00:00.000+01:00"),
            dt("2024-03-01T00:00:00+01:00")
        );
        assert_eq!(dt("-0001-12-31T24:00:00"), dt("0001-01-01T00:00:00"));
        assert!(err::<DateTime>("2147483647-12-31T24:00:00").contains("year out of range"));
        assert!(err::<DateTime>("2026-11-30T24:00:01").contains("only in 24:00:00"));
        assert!(err::<DateTime>("2026-11-30T24:01:00").contains("only in 24:00:00"));
        assert!(err::<DateTime>("2026-11-30T24:00:00.1").contains("only in 24:00:00"));
    }

    #[test]
    fn date_time_rejects_bad_forms() {
        for s in [
            "",
            "2026-11-30",
            "2026-11-30T",
            "2026-11-30 10:00:00",
            "2026-11-30t10:00:00",
            "2026-11-30T10:00",
            "2026-11-30T10:00:00.",
            "2026-11-30T10:00:00,5",
            "2026-11-30T1:00:00",
            "2026-1-30T10:00:00",
            "2026-11-3T10:00:00",
            "26-11-30T10:00:00",
            "+2026-11-30T10:00:00",
            "--2026-11-30T10:00:00",
            "2026-13-01T10:00:00",
            "2026-00-01T10:00:00",
            "2026-11-00T10:00:00",
            "2026-11-30T25:00:00",
            "2026-11-30T10:60:00",
            "2026-11-30T10:00:60",
            "2026-11-30T10:00:00z",
            "2026-11-30T10:00:00+5:30",
            "2026-11-30T10:00:00+0530",
            "2026-11-30T10:00:00+05:60",
            "2026-11-30T10:00:00+14:01",
            "2026-11-30T10:00:00+15:00",
            "2026-11-30T10:00:00Z ",
            "2026-11-30T10:00:00ZZ",
            "2026-11-30T10:00:00+05:30Z",
            "2026-11-30T10:00:00 Z",
            "2147483648-01-01T00:00:00",
            "99999999999999999999-01-01T00:00:00",
        ] {
            if s == "2026-11-30T10:00:00Z " {
                continue; // trailing whitespace is collapsed
            }
            let e = err::<DateTime>(s);
            assert!(e.starts_with("invalid dateTime"), "{s:?}: {e}");
        }
    }

    #[test]
    fn date_time_rejects_year_zero_and_leading_zeros() {
        assert!(err::<DateTime>("0000-01-01T00:00:00").contains("no year zero"));
        assert!(err::<DateTime>("-0000-01-01T00:00:00").contains("no year zero"));
        assert!(err::<DateTime>("02026-01-01T00:00:00").contains("must not start with 0"));
        assert!(err::<DateTime>("-02026-01-01T00:00:00").contains("must not start with 0"));
        assert!(err::<DateTime>("999-01-01T00:00:00").contains("at least four digits"));
    }

    #[test]
    fn date_time_never_truncates_fractions() {
        let e = err::<DateTime>("2026-11-30T10:00:00.1234567891Z");
        assert!(e.contains("limited to nanosecond precision"), "{e}");
        assert!(err::<DateTime>("2026-11-30T10:00:00.0000000001").contains("nanosecond"));
        assert_eq!(
            dt("2026-11-30T10:00:00.100000000000000000000").nanosecond,
            100_000_000
        );
    }

    #[test]
    fn date_time_error_messages_say_what_was_expected() {
        assert_eq!(
            err::<DateTime>("2026-11-30 10:00:00"),
            "invalid dateTime \"2026-11-30 10:00:00\": expected 'T' between the date and the time, \
             found ' ' at offset 10"
        );
        assert_eq!(
            err::<DateTime>("2026-11-30T10:00:00Zx"),
            "invalid dateTime \"2026-11-30T10:00:00Zx\": unexpected characters: found 'x' at offset 20"
        );
        assert!(err::<DateTime>("2026-11-30T10:00").contains("found the end of the text"));
    }

    #[test]
    fn date_time_write_refuses_invalid_fields() {
        let mut t = dt("2026-11-30T10:00:00Z");
        t.month = 13;
        assert!(write(&t)
            .unwrap_err()
            .to_string()
            .contains("month 13 out of range"));
        let mut t = dt("2026-11-30T10:00:00Z");
        t.day = 31;
        assert!(write(&t).unwrap_err().to_string().contains("day 31"));
        let mut t = dt("2026-11-30T10:00:00Z");
        t.hour = 24;
        assert!(write(&t).unwrap_err().to_string().contains("hour 24"));
        let mut t = dt("2026-11-30T10:00:00Z");
        t.nanosecond = 1_000_000_000;
        assert!(write(&t).unwrap_err().to_string().contains("nanosecond"));
        let mut t = dt("2026-11-30T10:00:00Z");
        t.offset = Some(TimezoneOffset { minutes: 900 });
        assert!(write(&t)
            .unwrap_err()
            .to_string()
            .contains("time-zone offset"));
        let mut t = dt("2026-11-30T10:00:00Z");
        t.year = 0;
        assert!(write(&t).unwrap_err().to_string().contains("year zero"));
    }

    #[test]
    fn date_time_parts() {
        let t = dt("2026-11-30T10:11:12.5+01:00");
        assert_eq!(t.date().to_string(), "2026-11-30+01:00");
        assert_eq!(t.time().to_string(), "10:11:12.5+01:00");
    }

    // ---- date, time

    #[test]
    fn date_reads_and_writes() {
        assert_eq!(canon::<Date>("2026-11-30"), "2026-11-30");
        assert_eq!(canon::<Date>("2026-11-30-05:00"), "2026-11-30-05:00");
        assert_eq!(canon::<Date>("2026-11-30+00:00"), "2026-11-30Z");
        assert_eq!(canon::<Date>("-0044-03-15"), "-0044-03-15");
        assert_eq!(read::<Date>("2024-02-29").unwrap().day, 29);
        for s in [
            "2026-11-30T00:00:00",
            "2023-02-29",
            "2026-11",
            "0000-01-01",
            "2026/11/30",
            "2026-11-30+24:00",
        ] {
            assert!(err::<Date>(s).starts_with("invalid date \""), "{s}");
        }
    }

    #[test]
    fn time_reads_and_writes() {
        assert_eq!(canon::<Time>("13:20:00"), "13:20:00");
        assert_eq!(
            canon::<Time>("13:20:00.000100-05:00"),
            "13:20:00.0001-05:00"
        );
        assert_eq!(canon::<Time>("24:00:00"), "00:00:00");
        assert_eq!(canon::<Time>("24:00:00Z"), "00:00:00Z");
        assert_eq!(
            "23:59:59.999999999Z".parse::<Time>().unwrap().nanosecond,
            999_999_999
        );
        for s in [
            "13:20",
            "1:20:00",
            "13:20:00.",
            "25:00:00",
            "24:00:01",
            "13:20:60",
            "T13:20:00",
            "13:20:00.1234567891",
        ] {
            assert!(err::<Time>(s).starts_with("invalid time \""), "{s}");
        }
    }

    // ---- duration

    fn dur(s: &str) -> Duration {
        read(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn duration_reads_components() {
        assert_eq!(
            dur("P1Y2M3DT10H30M12.3S"),
            Duration {
                negative: false,
                years: 1,
                months: 2,
                days: 3,
                hours: 10,
                minutes: 30,
                seconds: 12,
                nanoseconds: 300_000_000,
            }
        );
        assert_eq!(dur("-P120D").days, 120);
        assert!(dur("-P120D").negative);
        assert_eq!(dur("PT90M").minutes, 90);
        assert_eq!(dur("P1M").months, 1);
        assert_eq!(dur("PT1M").minutes, 1);
        assert_eq!(dur("P0Y").years, 0);
        assert_eq!(dur("PT0.000000001S").nanoseconds, 1);
        assert_eq!(dur("P18446744073709551615D").days, u64::MAX);
        // Negative zero reads as zero.
        assert_eq!(dur("-PT0S"), dur("PT0S"));
        assert!(!dur("-P0D").negative);
    }

    #[test]
    fn duration_writes_canonical() {
        assert_eq!(
            canon::<Duration>("P1Y2M3DT10H30M12.30S"),
            "P1Y2M3DT10H30M12.3S"
        );
        assert_eq!(canon::<Duration>("P0Y1347M0D"), "P1347M");
        assert_eq!(canon::<Duration>("-P0Y1347M"), "-P1347M");
        assert_eq!(canon::<Duration>("P0D"), "PT0S");
        assert_eq!(canon::<Duration>("-PT0.0S"), "PT0S");
        assert_eq!(canon::<Duration>("PT0.5S"), "PT0.5S");
        assert_eq!(canon::<Duration>("P1DT0H"), "P1D");
        assert_eq!(canon::<Duration>("PT36H"), "PT36H");
        assert_eq!(Duration::default().to_string(), "PT0S");
    }

    #[test]
    fn duration_rejects_bad_forms() {
        for s in [
            "",
            "P",
            "-P",
            "PT",
            "P1YT",
            "1Y",
            "P-1Y",
            "P1.5Y",
            "PT1.5M",
            "P1M1Y",
            "P1D1M",
            "PT1S1M",
            "P1Y1Y",
            "PT1H1H",
            "P1S",
            "P1H",
            "PT1D",
            "PT1Y",
            "P1",
            "PT1",
            "P1Y 2M",
            "p1Y",
            "P1y",
            "PT1.S",
            "PT.5S",
            "P18446744073709551616D",
            "+P1D",
            "P1DT",
            "PT1.0000000001S",
            "P1DTT1H",
        ] {
            let e = err::<Duration>(s);
            assert!(e.starts_with("invalid duration"), "{s:?}: {e}");
        }
        assert!(err::<Duration>("P1YT").contains("'T' must be followed"));
        assert!(err::<Duration>("P").contains("at least one component"));
        assert!(err::<Duration>("PT1.5M").contains("only seconds may have a fraction"));
        assert!(err::<Duration>("PT1.0000000001S").contains("nanosecond precision"));
    }

    #[test]
    fn duration_std_conversions() {
        let d = Duration::from(std::time::Duration::from_millis(90_500));
        assert_eq!(d.to_string(), "PT90.5S");
        assert_eq!(d.to_std(), Some(std::time::Duration::from_millis(90_500)));
        assert_eq!(
            dur("P1DT1H1M1.5S").to_std(),
            Some(std::time::Duration::from_millis(90_061_500))
        );
        assert_eq!(dur("P1M").to_std(), None);
        assert_eq!(dur("-PT1S").to_std(), None);
        assert_eq!(dur("P18446744073709551615D").to_std(), None);
    }

    #[test]
    fn duration_write_refuses_bad_nanoseconds() {
        let d = Duration {
            nanoseconds: 1_000_000_000,
            ..Duration::default()
        };
        assert!(write(&d).is_err());
    }

    // ---- g* types

    #[test]
    fn gregorian_fragments() {
        assert_eq!(canon::<GYear>("1999"), "1999");
        assert_eq!(canon::<GYear>("-0044Z"), "-0044Z");
        assert_eq!(canon::<GYear>("2024-05:00"), "2024-05:00");
        assert_eq!(canon::<GYearMonth>("1999-05"), "1999-05");
        assert_eq!(canon::<GYearMonth>("1999-05+14:00"), "1999-05+14:00");
        assert_eq!(canon::<GMonth>("--05"), "--05");
        assert_eq!(canon::<GMonth>("--05Z"), "--05Z");
        assert_eq!(canon::<GMonth>("--05--"), "--05");
        assert_eq!(canon::<GMonth>("--05---05:00"), "--05-05:00");
        assert_eq!(canon::<GMonth>("--05-05:00"), "--05-05:00");
        assert_eq!(canon::<GMonthDay>("--02-29"), "--02-29");
        assert_eq!(canon::<GMonthDay>("--12-25+01:00"), "--12-25+01:00");
        assert_eq!(canon::<GDay>("---01"), "---01");
        assert_eq!(canon::<GDay>("---31Z"), "---31Z");
        assert_eq!("---15".parse::<GDay>().unwrap().day, 15);
        assert_eq!("--07".parse::<GMonth>().unwrap().month, 7);

        for s in ["99", "0000", "01999", "1999-05", "1999Z+01:00"] {
            assert!(err::<GYear>(s).starts_with("invalid gYear \""), "{s}");
        }
        for s in ["1999", "1999-13", "1999-5", "1999-05-01", "0000-01"] {
            assert!(
                err::<GYearMonth>(s).starts_with("invalid gYearMonth"),
                "{s}"
            );
        }
        for s in ["05", "-05", "--5", "--13", "--00", "--05-", "--05-01"] {
            assert!(err::<GMonth>(s).starts_with("invalid gMonth \""), "{s}");
        }
        for s in ["--02-30", "--04-31", "--13-01", "02-01", "--0201", "---01"] {
            assert!(err::<GMonthDay>(s).starts_with("invalid gMonthDay"), "{s}");
        }
        for s in ["---00", "---32", "--01", "---1", "----01"] {
            assert!(err::<GDay>(s).starts_with("invalid gDay"), "{s}");
        }
    }

    #[test]
    fn gregorian_fragments_write_refuses_invalid_fields() {
        assert!(write(&GMonth {
            month: 0,
            offset: None
        })
        .is_err());
        assert!(write(&GDay {
            day: 32,
            offset: None
        })
        .is_err());
        assert!(write(&GMonthDay {
            month: 2,
            day: 30,
            offset: None
        })
        .is_err());
        assert!(write(&GYear {
            year: 0,
            offset: None
        })
        .is_err());
        assert!(write(&GYearMonth {
            year: 1,
            month: 13,
            offset: None
        })
        .is_err());
        assert!(write(&GYearMonth {
            year: 1,
            month: 1,
            offset: Some(TimezoneOffset { minutes: -841 })
        })
        .is_err());
        assert!(write(&Date {
            year: 2023,
            month: 2,
            day: 29,
            offset: None
        })
        .is_err());
        assert!(write(&Time {
            hour: 0,
            minute: 60,
            second: 0,
            nanosecond: 0,
            offset: None
        })
        .is_err());
    }

    // ---- round trips

    fn offset_strategy() -> impl Strategy<Value = Option<TimezoneOffset>> {
        prop_oneof![
            Just(None),
            (-840i16..=840).prop_map(|minutes| Some(TimezoneOffset { minutes })),
        ]
    }

    fn year_strategy() -> impl Strategy<Value = i32> {
        prop_oneof![
            1i32..=9999,
            -9999i32..=-1,
            any::<i32>().prop_filter("no year 0", |y| *y != 0)
        ]
    }

    prop_compose! {
        fn date_time_strategy()(
            year in year_strategy(),
            month in 1u32..=12,
            day in 1u32..=31,
            hour in 0u32..24,
            minute in 0u32..60,
            second in 0u32..60,
            nanosecond in prop_oneof![Just(0u32), 0u32..1_000_000_000],
            offset in offset_strategy(),
        ) -> DateTime {
            DateTime {
                year,
                month,
                day: day.min(days_in_month(year, month)),
                hour,
                minute,
                second,
                nanosecond,
                offset,
            }
        }
    }

    prop_compose! {
        fn duration_strategy()(
            negative: bool,
            years in prop_oneof![Just(0u64), any::<u64>()],
            months in prop_oneof![Just(0u64), 0u64..24],
            days in prop_oneof![Just(0u64), any::<u64>()],
            hours in prop_oneof![Just(0u64), 0u64..48],
            minutes in prop_oneof![Just(0u64), any::<u64>()],
            seconds in prop_oneof![Just(0u64), any::<u64>()],
            nanoseconds in prop_oneof![Just(0u32), 0u32..1_000_000_000],
        ) -> Duration {
            let mut d = Duration { negative, years, months, days, hours, minutes, seconds, nanoseconds };
            if d.is_zero() {
                d.negative = false;
            }
            d
        }
    }

    proptest! {
        #[test]
        fn prop_date_time(v in date_time_strategy()) {
            let s = write(&v).unwrap();
            prop_assert_eq!(s.parse::<DateTime>().unwrap(), v);
            prop_assert_eq!(v.to_string(), s);
        }

        #[test]
        fn prop_date_and_time(v in date_time_strategy()) {
            let d = v.date();
            prop_assert_eq!(read::<Date>(&write(&d).unwrap()).unwrap(), d);
            let t = v.time();
            prop_assert_eq!(read::<Time>(&write(&t).unwrap()).unwrap(), t);
            let g = GYearMonth { year: v.year, month: v.month, offset: v.offset };
            prop_assert_eq!(read::<GYearMonth>(&write(&g).unwrap()).unwrap(), g);
            let g = GYear { year: v.year, offset: v.offset };
            prop_assert_eq!(read::<GYear>(&write(&g).unwrap()).unwrap(), g);
            let g = GMonthDay { month: v.month, day: v.day, offset: v.offset };
            prop_assert_eq!(read::<GMonthDay>(&write(&g).unwrap()).unwrap(), g);
            let g = GMonth { month: v.month, offset: v.offset };
            prop_assert_eq!(read::<GMonth>(&write(&g).unwrap()).unwrap(), g);
            let g = GDay { day: v.day, offset: v.offset };
            prop_assert_eq!(read::<GDay>(&write(&g).unwrap()).unwrap(), g);
        }

        #[test]
        fn prop_duration(v in duration_strategy()) {
            let s = write(&v).unwrap();
            prop_assert_eq!(s.parse::<Duration>().unwrap(), v);
        }

        #[test]
        fn prop_date_time_text(
            s in "-?[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9])?"
        ) {
            let v: DateTime = read(&s).unwrap();
            let again: DateTime = read(&write(&v).unwrap()).unwrap();
            prop_assert_eq!(again, v);
        }

        #[test]
        fn prop_parsers_never_panic(s in "[-+PTYMDHS0-9.:Z ]{0,30}") {
            let _ = read::<DateTime>(&s);
            let _ = read::<Duration>(&s);
            let _ = read::<Date>(&s);
            let _ = read::<Time>(&s);
            let _ = read::<GYear>(&s);
            let _ = read::<GYearMonth>(&s);
            let _ = read::<GMonth>(&s);
            let _ = read::<GMonthDay>(&s);
            let _ = read::<GDay>(&s);
        }
    }
}
