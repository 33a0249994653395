//! UTC instants for `wsu:Created` and `wsu:Expires` (WSS 1.1 §10: xsd:dateTime, in UTC).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::WssError;

/// An instant in UTC with millisecond precision, as WS-Security writes times (WSS 1.1 §10:
/// `xsd:dateTime` in UTC, e.g. `2026-11-30T10:00:00.123Z`).
///
/// Displays in that form (always three fraction digits and `Z`); parsed from any `xsd:dateTime`
/// that has a time-zone offset (XML Schema Part 2 §3.2.7), fractions beyond milliseconds truncated.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::wss::UtcTime;
/// let t = UtcTime::from_unix_millis(1_795_000_000_123);
/// assert_eq!(t.to_string(), "2026-11-18T11:06:40.123Z");
/// assert_eq!("2026-11-18T12:06:40.123+01:00".parse::<UtcTime>()?, t);
/// # Ok::<(), soapgen_runtime::wss::WssError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTime {
    millis: i64,
}

impl UtcTime {
    /// The current time of the system clock.
    pub fn now() -> UtcTime {
        let millis = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
            Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
        };
        UtcTime { millis }
    }

    /// The instant `millis` milliseconds after 1970-01-01T00:00:00Z (negative: before).
    pub const fn from_unix_millis(millis: i64) -> UtcTime {
        UtcTime { millis }
    }

    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub const fn unix_millis(self) -> i64 {
        self.millis
    }

    /// `self + d`, saturating.
    pub fn plus(self, d: Duration) -> UtcTime {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        UtcTime {
            millis: self.millis.saturating_add(ms),
        }
    }

    /// `self - d`, saturating.
    pub fn minus(self, d: Duration) -> UtcTime {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        UtcTime {
            millis: self.millis.saturating_sub(ms),
        }
    }
}

impl fmt::Display for UtcTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.millis.div_euclid(86_400_000);
        let ms_of_day = self.millis.rem_euclid(86_400_000);
        let (y, m, d) = civil_from_days(days);
        let secs = ms_of_day / 1000;
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60,
            ms_of_day % 1000
        )
    }
}

impl std::str::FromStr for UtcTime {
    type Err = WssError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| WssError::MalformedTime {
            value: s.chars().take(64).collect(),
            reason: why.to_owned(),
        };
        let t: crate::types::DateTime = s.trim().parse().map_err(|e| bad(&format!("{e}")))?;
        let Some(offset) = t.offset else {
            return Err(bad("no time zone (WSS 1.1 §10 requires UTC)"));
        };
        let days = days_from_civil(i64::from(t.year), t.month, t.day);
        let secs = days * 86_400
            + i64::from(t.hour) * 3600
            + i64::from(t.minute) * 60
            + i64::from(t.second)
            - i64::from(offset.minutes) * 60;
        Ok(UtcTime {
            millis: secs * 1000 + i64::from(t.nanosecond / 1_000_000),
        })
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). XML
/// Schema 1.0 has no year 0: year -1 is 1 BCE, astronomical year 0.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if year < 0 { year + 1 } else { year } - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`] (astronomical years).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses() {
        assert_eq!(
            UtcTime::from_unix_millis(0).to_string(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            UtcTime::from_unix_millis(951_782_400_999).to_string(),
            "2000-02-29T00:00:00.999Z"
        );
        for ms in [
            0i64,
            1,
            951_782_400_999,
            4_102_444_799_000,
            1_795_000_000_123,
        ] {
            let t = UtcTime::from_unix_millis(ms);
            assert_eq!(t.to_string().parse::<UtcTime>().unwrap(), t);
        }
        assert_eq!(
            "2026-11-30T10:00:00Z".parse::<UtcTime>().unwrap(),
            "2026-11-30T05:00:00-05:00".parse::<UtcTime>().unwrap()
        );
        assert_eq!(
            "1970-01-01T00:00:01.123456789Z"
                .parse::<UtcTime>()
                .unwrap()
                .unix_millis(),
            1123
        );
        let e = "2026-11-30T10:00:00".parse::<UtcTime>().unwrap_err();
        assert!(e.to_string().contains("no time zone"), "{e}");
        assert!("yesterday".parse::<UtcTime>().is_err());
    }

    #[test]
    fn now_is_now() {
        let a = UtcTime::now();
        let sys = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        assert!((sys - a.unix_millis()).abs() < 5_000);
        assert!(a.plus(Duration::from_secs(1)) > a);
        assert_eq!(
            a.plus(Duration::from_millis(5))
                .minus(Duration::from_millis(5)),
            a
        );
    }
}
