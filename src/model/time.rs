//! RFC 3339 timestamps as Unix seconds (metav1.Time has second precision).
//!
//! Parsing accepts what Go's `time.Parse(time.RFC3339, s)` accepts (what `metav1.Time`
//! unmarshals with): `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or `±HH:MM`.
//! The fraction is dropped, as metav1.Time serialises whole seconds.

/// Why a timestamp was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TimeError {
    #[error("expected an RFC 3339 time like \"2006-01-02T15:04:05Z\", found {:?}", super::echo(.0))]
    Format(String),
    #[error("{field} out of range in {:?}", super::echo(text))]
    Range { field: &'static str, text: String },
}

/// Parses an RFC 3339 timestamp into Unix seconds (UTC).
pub(crate) fn parse_rfc3339(text: &str) -> Result<i64, TimeError> {
    let format_error = || TimeError::Format(text.to_string());
    let bytes = text.as_bytes();
    let number = |from: usize, len: usize| -> Result<i64, TimeError> {
        let digits = bytes.get(from..from + len).ok_or_else(format_error)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(format_error());
        }
        Ok(digits
            .iter()
            .fold(0i64, |acc, digit| acc * 10 + i64::from(digit - b'0')))
    };
    let separator = |at: usize, expected: u8| -> Result<(), TimeError> {
        match bytes.get(at) {
            Some(found) if *found == expected => Ok(()),
            _ => Err(format_error()),
        }
    };
    let year = number(0, 4)?;
    separator(4, b'-')?;
    let month = number(5, 2)?;
    separator(7, b'-')?;
    let day = number(8, 2)?;
    separator(10, b'T')?;
    let hour = number(11, 2)?;
    separator(13, b':')?;
    let minute = number(14, 2)?;
    separator(16, b':')?;
    let second = number(17, 2)?;
    let mut pos = 19;
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        let fraction = bytes.get(pos..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        });
        if fraction == 0 {
            return Err(format_error());
        }
        pos += fraction;
    }
    let offset = match bytes.get(pos) {
        Some(b'Z') if pos + 1 == bytes.len() => 0,
        Some(sign @ (b'+' | b'-')) if pos + 6 == bytes.len() => {
            let offset_hours = number(pos + 1, 2)?;
            separator(pos + 3, b':')?;
            let offset_minutes = number(pos + 4, 2)?;
            if offset_hours >= 24 {
                return Err(range("time zone offset hour", text));
            }
            if offset_minutes >= 60 {
                return Err(range("time zone offset minute", text));
            }
            let seconds = offset_hours * 3600 + offset_minutes * 60;
            if *sign == b'-' {
                -seconds
            } else {
                seconds
            }
        }
        _ => return Err(format_error()),
    };
    if !(1..=12).contains(&month) {
        return Err(range("month", text));
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(range("day", text));
    }
    if hour >= 24 {
        return Err(range("hour", text));
    }
    if minute >= 60 {
        return Err(range("minute", text));
    }
    if second >= 60 {
        return Err(range("second", text));
    }
    let days = days_from_civil(year, month, day);
    Ok(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

/// `0000-01-01T00:00:00Z` and `9999-12-31T23:59:59Z`: RFC 3339 has four-digit years (Go's
/// `time.MarshalJSON`, under metav1.Time, refuses the others).
const EARLIEST_RFC3339: i64 = -62_167_219_200;
const LATEST_RFC3339: i64 = 253_402_300_799;

/// Formats Unix seconds as RFC 3339 in UTC (`2026-01-01T00:00:00Z`), as metav1.Time does.
/// A time outside the years 0000-9999 (a `tolerationSeconds` near the int64 maximum) is
/// written as the nearest end of that range, so the output stays RFC 3339.
pub(crate) fn format_rfc3339(unix_seconds: i64) -> String {
    let unix_seconds = unix_seconds.clamp(EARLIEST_RFC3339, LATEST_RFC3339);
    let days = unix_seconds.div_euclid(86_400);
    let seconds_of_day = unix_seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        seconds_of_day / 3600,
        seconds_of_day % 3600 / 60,
        seconds_of_day % 60
    )
}

fn range(field: &'static str, text: &str) -> TimeError {
    TimeError::Range {
        field,
        text: text.to_string(),
    }
}

fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_beyond_four_digit_years_are_written_at_the_range_ends() {
        assert_eq!(format_rfc3339(i64::MAX), "9999-12-31T23:59:59Z");
        assert_eq!(format_rfc3339(i64::MIN), "0000-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(LATEST_RFC3339), "9999-12-31T23:59:59Z");
        assert_eq!(format_rfc3339(EARLIEST_RFC3339), "0000-01-01T00:00:00Z");
    }

    use super::*;

    #[test]
    fn epoch_is_zero() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Ok(0));
    }

    #[test]
    fn utc_timestamps_parse_to_unix_seconds() {
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00Z"), Ok(1_767_225_600));
        assert_eq!(parse_rfc3339("2000-02-29T12:34:56Z"), Ok(951_827_696));
    }

    #[test]
    fn offsets_are_subtracted() {
        assert_eq!(parse_rfc3339("1970-01-01T02:00:00+02:00"), Ok(0));
        assert_eq!(parse_rfc3339("1969-12-31T19:30:00-04:30"), Ok(0));
    }

    #[test]
    fn fractions_are_dropped() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.999Z"), Ok(1));
    }

    #[test]
    fn go_zero_time_is_before_the_epoch() {
        assert_eq!(parse_rfc3339("0001-01-01T00:00:00Z"), Ok(-62_135_596_800));
    }

    #[test]
    fn missing_zone_is_a_format_error() {
        assert_eq!(
            parse_rfc3339("2026-01-01T00:00:00"),
            Err(TimeError::Format("2026-01-01T00:00:00".to_string()))
        );
    }

    #[test]
    fn lower_case_separator_is_a_format_error() {
        assert!(matches!(
            parse_rfc3339("2026-01-01t00:00:00Z"),
            Err(TimeError::Format(_))
        ));
    }

    #[test]
    fn date_only_is_a_format_error() {
        assert!(matches!(
            parse_rfc3339("2026-01-01"),
            Err(TimeError::Format(_))
        ));
    }

    #[test]
    fn non_ascii_input_is_a_format_error() {
        assert!(matches!(
            parse_rfc3339("2026-01-01T00:00:0\u{e9}Z"),
            Err(TimeError::Format(_))
        ));
    }

    #[test]
    fn day_beyond_month_end_is_a_range_error() {
        assert_eq!(
            parse_rfc3339("2025-02-29T00:00:00Z"),
            Err(TimeError::Range {
                field: "day",
                text: "2025-02-29T00:00:00Z".to_string()
            })
        );
    }

    #[test]
    fn leap_second_is_a_range_error() {
        assert!(matches!(
            parse_rfc3339("2016-12-31T23:59:60Z"),
            Err(TimeError::Range {
                field: "second",
                ..
            })
        ));
    }

    #[test]
    fn formatting_is_utc_with_whole_seconds() {
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn formatting_round_trips_parsing() {
        for text in [
            "2000-02-29T12:34:56Z",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
        ] {
            assert_eq!(
                parse_rfc3339(text).map(format_rfc3339),
                Ok(text.to_string())
            );
        }
    }
}
