//! The Gregorian fragments (XML Schema Part 2 §3.2.11–§3.2.15): gYear, gYearMonth, gMonth,
//! gMonthDay and gDay, each with an optional time-zone offset.

use super::*;

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
