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
