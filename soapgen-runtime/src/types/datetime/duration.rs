//! xs:duration (XML Schema Part 2 §3.2.6).

use super::*;

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
