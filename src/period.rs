//! Reference periods in one form, whatever file they came from: Eurostat's bulk TSV writes
//! `2023Q1`, `2023S1` and `2023M01`, SDMX-CSV `2023-Q1`, `2023-S1` and `2023-01`. Stored and shown
//! as SDMX writes them (ISO 8601 for months), a quarter of one file sorts with the same quarter of
//! another, and text order is time order within each frequency.

/// Years a figure may lag the newest one of an answer before it is named stale ("the latest
/// available", `stale_variable`): regions, prices and methods may have changed since.
pub const STALE_YEARS: i32 = 3;

/// The year a period falls in (`2021`, `2021-Q3`, `2021-07`).
pub fn year(period: &str) -> Option<i32> {
    period.get(..4)?.parse().ok()
}

/// `text` in the one form regintel stores: a year `2023`, a quarter `2023-Q1`, a semester
/// `2023-S1` or a month `2023-01`; or why it is none of them.
pub fn canonical(text: &str) -> Result<String, String> {
    let refuse = || {
        Err(format!(
            "period \"{}\" is not a year (2023), quarter (2023-Q1), semester (2023-S1) or month (2023-01)",
            crate::error_text::shown(text)
        ))
    };
    let bytes = text.as_bytes();
    if bytes.len() < 4 || !bytes[..4].iter().all(u8::is_ascii_digit) {
        return refuse();
    }
    let (year, rest) = text.split_at(4);
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let number = |digits: &str, max: u32| -> Option<u32> {
        let n: u32 =
            (!digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse().ok())??;
        (1..=max).contains(&n).then_some(n)
    };
    if rest.is_empty() && text.len() == 4 {
        return Ok(year.to_owned());
    }
    let canonical = match rest.as_bytes().first() {
        Some(b'Q' | b'q') if rest.len() == 2 => {
            number(&rest[1..], 4).map(|q| format!("{year}-Q{q}"))
        }
        Some(b'S' | b's') if rest.len() == 2 => {
            number(&rest[1..], 2).map(|s| format!("{year}-S{s}"))
        }
        Some(b'M' | b'm') if rest.len() == 3 => {
            number(&rest[1..], 12).map(|m| format!("{year}-{m:02}"))
        }
        // Only SDMX's `2023-01`: `202301` is no period Eurostat writes.
        Some(b'0'..=b'9') if rest.len() == 2 && text.len() == 7 => {
            number(rest, 12).map(|m| format!("{year}-{m:02}"))
        }
        _ => None,
    };
    match canonical {
        Some(c) => Ok(c),
        None => refuse(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_form_has_one_canonical_form() {
        for (given, stored) in [
            ("2023", "2023"),
            ("2023Q1", "2023-Q1"),
            ("2023-Q4", "2023-Q4"),
            ("2023q2", "2023-Q2"),
            ("2023S2", "2023-S2"),
            ("2023-S1", "2023-S1"),
            ("2023M01", "2023-01"),
            ("2023M12", "2023-12"),
            ("2023-07", "2023-07"),
        ] {
            assert_eq!(canonical(given).as_deref(), Ok(stored), "{given}");
            assert_eq!(canonical(stored).as_deref(), Ok(stored), "{stored} stays");
        }
        // A quarter of either file sorts with the other's, and after the year before.
        let mut sorted = ["2023-Q2", "2022-Q4", "2023-Q1"].map(|p| canonical(p).unwrap());
        sorted.sort();
        assert_eq!(sorted, ["2022-Q4", "2023-Q1", "2023-Q2"]);
    }

    #[test]
    fn anything_else_is_refused_saying_what_is_known() {
        for bad in [
            "@2023",
            "2023 ",
            "",
            "23",
            "20233",
            "2023Q5",
            "2023Q0",
            "2023S3",
            "2023M13",
            "2023M1",
            "2023-13",
            "2023-1",
            "202301",
            "2023W01",
            "2023-01-15",
            "２０２３",
            "2023-",
            "2023Q",
            "2023-Q01",
        ] {
            let why = canonical(bad).unwrap_err();
            assert!(why.contains("is not a year (2023)"), "{bad}: {why}");
        }
    }
}
