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

mod duration;
mod gregorian;

pub use duration::Duration;
pub use gregorian::{GDay, GMonth, GMonthDay, GYear, GYearMonth};

#[cfg(test)]
mod tests;
