use super::super::{Accept, ParsedFile, collect};
use super::*;

pub(super) fn parse(
    file: &str,
    bytes: &[u8],
    defaults: Defaults<'_>,
) -> Result<ParsedFile, FormatError> {
    collect(file, bytes, Accept::Only(Format::Tidy), defaults)
}

const HEADER: &str = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex";

fn err(text: &str) -> FormatError {
    parse("t.csv", text.as_bytes(), Defaults::default()).unwrap_err()
}

#[test]
fn happy_path() {
    let text = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex,conf_status,src_line\n\
                    TGS00010,AT11,2,2013,4.3,PC,,A,T,,2\n\
                    tgs00010,BE21,2,2018,,PC,,A,T,C,7\n\
                    tgs00010,EU27_2020,,2022,-1.50,PC,bP,A,T,,9\n";
    let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
    assert_eq!(p.format, Format::Tidy);
    assert_eq!(p.dataset, "tgs00010");
    assert_eq!(p.title, None);
    assert_eq!(p.dim_names, ["freq", "sex"]);
    assert_eq!(p.rows.len(), 3);
    let r = &p.rows[0];
    assert_eq!(
        (r.region.as_str(), r.period.as_str(), r.unit.as_str()),
        ("AT11", "2013", "PC")
    );
    assert_eq!(
        (r.value_text.as_str(), r.value, r.src_line),
        ("4.3", Some(4.3), 2)
    );
    assert_eq!(r.dim_values, ["A", "T"]);
    let r = &p.rows[1];
    assert_eq!(
        (r.value_text.as_str(), r.value, r.conf_status.as_str()),
        ("", None, "C")
    );
    let r = &p.rows[2];
    assert_eq!(
        (r.value_text.as_str(), r.value, r.flags.as_str()),
        ("-1.50", Some(-1.5), "bp")
    );
}

#[test]
fn src_line_defaults_to_the_csv_line_and_crlf_is_fine() {
    let text = format!("{HEADER}\r\nx,AT,0,2020,1,NR,,A,T\r\nx,AT,0,2021,2,NR,e,A,T\r\n");
    let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
    assert_eq!(
        p.rows.iter().map(|r| r.src_line).collect::<Vec<_>>(),
        [2, 3]
    );
    assert_eq!(p.rows[1].flags, "e");
}

#[test]
fn bad_number() {
    let e = err(&format!(
        "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,\"12,3\",NR,,A,T\n"
    ));
    assert_eq!(
        (e.line, e.reason.as_str()),
        (3, "value \"12,3\" is not a number")
    );
}

#[test]
fn bad_flag() {
    let e = err(&format!("{HEADER}\nx,AT,0,2020,1,NR,p!,A,T\n"));
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("flags \"p!\""), "{}", e.reason);
}

#[test]
fn missing_column() {
    let e = err("dataset_code,nuts_code,nuts_level,time,value,flags\nx,AT,0,2020,1,\n");
    assert_eq!(
        (e.line, e.reason.as_str()),
        (1, "missing column \"unit\" (or name the unit: --unit)")
    );
}

fn for_dataset<'a>(dataset: &'a str, unit: &'a str) -> Defaults<'a> {
    Defaults {
        dataset: Some(dataset),
        unit: Some(unit),
        ..Default::default()
    }
}

/// The least a user writes: region, period, value; the dataset and unit come from the caller.
#[test]
fn the_minimal_form_takes_the_dataset_and_unit_from_the_caller() {
    let text = "nuts_code,period,value\nDE21,2022,1.5\nfr10,2023,2\n";
    let p = parse("t.csv", text.as_bytes(), for_dataset("mine", "NR")).unwrap();
    assert_eq!(p.dataset, "mine");
    assert_eq!(p.dim_names, Vec::<String>::new());
    let r = &p.rows[1];
    assert_eq!(
        (
            r.region.as_str(),
            r.period.as_str(),
            r.unit.as_str(),
            r.flags.as_str()
        ),
        ("fr10", "2023", "NR", "")
    );
    let aliases = "geo,time,value,sex\nDE21,2022,1,T\n";
    let p = parse("t.csv", aliases.as_bytes(), for_dataset("mine", "NR")).unwrap();
    assert_eq!(p.dim_names, ["sex"]);
    let e = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap_err();
    assert!(e.reason.contains("--dataset"), "{}", e.reason);
}

#[test]
fn optional_columns_when_present_must_agree() {
    let mine = for_dataset("mine", "NR");
    let e = parse(
        "t.csv",
        b"dataset_code,nuts_code,period,value\nmine,DE21,2022,1\nother,DE21,2023,1\n",
        mine,
    )
    .unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (
            3,
            "dataset_code \"other\" is not this dataset's code \"mine\""
        )
    );
    let e = parse(
        "t.csv",
        b"nuts_code,nuts_level,period,value\nDE21,2,2022,1\nDE21,3,2023,1\n",
        mine,
    )
    .unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (3, "nuts_level 3 does not match DE21, a level 2 code")
    );
    let e = parse(
        "t.csv",
        b"nuts_code,nuts_level,period,value\nEU27_2020,0,2022,1\n",
        mine,
    )
    .unwrap_err();
    assert!(e.reason.contains("not a NUTS code"), "{}", e.reason);
    // An empty level says nothing, as for aggregates in data/.
    parse(
        "t.csv",
        b"nuts_code,nuts_level,period,value\nEU27_2020,,2022,1\n",
        mine,
    )
    .unwrap();
    let e = parse("t.csv", b"nuts_code,geo,period,value\n", mine).unwrap_err();
    assert_eq!(
        e.reason,
        "columns \"nuts_code\" and \"geo\" say the same: keep one"
    );
}

#[test]
fn long_input_is_quoted_short() {
    let long = "9x".repeat(2_500);
    let e = err(&format!("{HEADER}\nx,AT,0,2020,{long},NR,,A,T\n"));
    assert!(e.reason.len() < 120, "{}", e.reason);
    assert!(e.reason.ends_with("…\" is not a number"), "{}", e.reason);
}

#[test]
fn wrong_field_count() {
    let e = err(&format!(
        "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,1,NR,\n"
    ));
    assert_eq!(
        (e.line, e.reason.as_str()),
        (3, "expected 9 fields, found 7")
    );
}

#[test]
fn duplicate() {
    let e = err(&format!(
        "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2020,1,NR,,A,F\nx,AT,0,2020,2,NR,,A,T\n"
    ));
    assert_eq!(e.line, 4);
    assert_eq!(
        e.reason,
        "duplicate observation for AT 2020 NR A T (first seen on line 2)"
    );
}

#[test]
fn duplicate_names_lines_of_this_file_not_src_line() {
    let e = err(&format!(
        "{HEADER},src_line\nx,AT,0,2020,1,NR,,A,T,40\n\nx,AT,0,2020,2,NR,,A,T,40\n"
    ));
    assert_eq!(e.line, 4);
    assert_eq!(
        e.reason,
        "duplicate observation for AT 2020 NR A T (first seen on line 2)"
    );
}

#[test]
fn blank_lines_are_skipped_and_counted() {
    let text = format!("{HEADER}\n\nx,AT,0,2020,1,NR,,A,T\r\n\r\nx,AT,0,2021,1,NR,,A,T\n\n");
    let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
    assert_eq!(
        p.rows.iter().map(|r| r.src_line).collect::<Vec<_>>(),
        [3, 5]
    );
}

#[test]
fn mixed_dataset_codes() {
    let e = err(&format!(
        "{HEADER}\nx,AT,0,2020,1,NR,,A,T\ny,AT,0,2021,1,NR,,A,T\n"
    ));
    assert_eq!(e.line, 3);
    assert!(e.reason.contains("\"y\""), "{}", e.reason);
}

#[test]
fn empty_value_needs_a_flag() {
    let e = err(&format!("{HEADER}\nx,AT,0,2020,,NR,,A,T\n"));
    assert_eq!(e.line, 2);
}

#[test]
fn bad_region_period_unit_and_src_line() {
    assert_eq!(err(&format!("{HEADER}\nx,A-T,0,2020,1,NR,,A,T\n")).line, 2);
    assert_eq!(
        err(&format!("{HEADER}\nx,AT,0,,1,NR,,A,T\n")).reason,
        "empty period"
    );
    assert_eq!(
        err(&format!("{HEADER}\nx,AT,0,2020,1,,,A,T\n")).reason,
        "empty unit"
    );
    let e = err(&format!("{HEADER},src_line\nx,AT,0,2020,1,NR,,A,T,0\n"));
    assert_eq!(
        (e.line, e.reason.as_str()),
        (2, "src_line \"0\" is not a line number")
    );
}

#[test]
fn header_problems() {
    assert_eq!(err("").reason, "file is empty");
    assert_eq!(
        err(&format!("{HEADER}\n")).reason,
        "no data rows, so no dataset_code"
    );
    assert_eq!(
        err(&format!("{HEADER},sex\n")).reason,
        "duplicate column \"sex\""
    );
    assert_eq!(
        err(&format!("{HEADER},unit\n")).reason,
        "duplicate column \"unit\""
    );
    assert_eq!(err(&format!("{HEADER},\n")).reason, "column 10 has no name");
}

/// 300,000 column names took 79 s of CPU when each was compared with every earlier one.
#[test]
fn huge_headers_are_refused_and_repeats_found_under_the_cap() {
    let many: Vec<String> = (0..120_000).map(|i| format!("d{i}")).collect();
    let e = err(&format!("{HEADER},{}\n", many.join(",")));
    assert_eq!(e.line, 1);
    assert_eq!(
        e.reason,
        "the header has 120009 columns; at most 1000 are accepted"
    );
    // Past a line's bound in bytes, the reading stops before the names are looked at.
    let longer: Vec<String> = (0..300_000).map(|i| format!("d{i}")).collect();
    let e = err(&format!("{HEADER},{}\n", longer.join(",")));
    assert!(
        e.reason.starts_with("more than 1048576 bytes"),
        "{}",
        e.reason
    );
    assert_eq!(e.line, 1);
    // Under the cap, a repeat at the very end is still found.
    let mut names: Vec<String> = (0..990).map(|i| format!("d{i}")).collect();
    names.push("d0".into());
    let e = err(&format!("{HEADER},{}\n", names.join(",")));
    assert_eq!(e.reason, "duplicate column \"d0\"");
}

/// `a="x;b=y"` and `b="y;b=z"` both made the series key `a=x;b=y;b=z`: the second write
/// broke a unique index. Names and values are codes, so no two series share a key.
#[test]
fn dimension_names_and_values_are_codes() {
    let header = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,a,b";
    let e = err(&format!("{header}\nx,AT,0,2020,1,NR,,\"x;b=y\",z\n"));
    assert_eq!(e.line, 2);
    assert!(
        e.reason
            .starts_with("dimension value \"x;b=y\" is not a code"),
        "{}",
        e.reason
    );
    let e = err(&format!("{header}\nx,AT,0,2020,1,NR,,x,\n"));
    assert_eq!(e.reason, "empty dimension value");
    let e = err(&format!(
        "{header}\nx,AT,0,2020,1,NR,,{},y\n",
        "v".repeat(65)
    ));
    assert!(e.reason.contains("1 to 64"), "{}", e.reason);
    let e = err(
        "dataset_code,nuts_code,nuts_level,time,value,unit,flags,\"a=b\"\nx,AT,0,2020,1,NR,,x\n",
    );
    assert_eq!(e.line, 1);
    assert!(e.reason.contains("dimension name \"a=b\""), "{}", e.reason);
    // Eurostat's own codes pass.
    let ok = format!("{header}\nx,AT,0,2020,1,NR,,Y15-64,B-E\nx,AT,0,2021,1,NR,,Y_GE65,T\n");
    assert_eq!(
        parse("t.csv", ok.as_bytes(), Defaults::default())
            .unwrap()
            .rows
            .len(),
        2
    );
}

#[test]
fn invalid_utf8_is_reported_with_its_line() {
    let mut bytes = format!("{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,1,NR,,A,").into_bytes();
    bytes.extend_from_slice(b"\xff\n");
    let e = parse("t.csv", &bytes, Defaults::default()).unwrap_err();
    assert_eq!((e.line, e.reason.as_str()), (3, "not valid UTF-8"));
}

/// Every problem of a file reported, each with its line and reason.
mod problems {
    use super::super::super::ParsedFile;
    use super::super::*;
    use super::parse;

    fn parse_minimal(text: &str, unit_only: bool) -> Result<ParsedFile, FormatError> {
        let defaults = Defaults {
            dataset: Some("mine"),
            unit: Some("PC"),
            unit_only,
            ..Default::default()
        };
        parse("body", text.as_bytes(), defaults)
    }

    /// Every bad row is reported, in line order, each with its reason, not only the first.
    #[test]
    fn every_bad_row_is_reported() {
        let text = "nuts_code,period,value,unit\nDE21,2023,1x,PC\nDE22,2023,2,PC\nDE23,20x3,3,PC\nDE24,2023,4,NR\nDE25,2023\n";
        let e = parse_minimal(text, true).unwrap_err();
        let listed: Vec<(u64, &str)> = e.problems().collect();
        assert_eq!(
            listed.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [2, 4, 5, 6],
            "{e}"
        );
        assert!(listed[0].1.contains("value \"1x\""), "{e}");
        assert!(listed[2].1.contains("the dataset's unit is PC"), "{e}");
        assert!(listed[3].1.contains("expected 4 fields"), "{e}");
        assert_eq!(e.not_listed, 0);
        assert_eq!(e.to_string().lines().count(), 4, "{e}");
    }

    /// Past [`super::super::super::MAX_PROBLEMS`], problems are counted, not listed.
    #[test]
    fn problems_past_the_bound_are_counted() {
        let mut text = String::from("nuts_code,period,value\n");
        for i in 0..250 {
            text.push_str(&format!("DE{i},2023,bad\n"));
        }
        let e = parse_minimal(&text, false).unwrap_err();
        assert_eq!(e.problems().count(), super::super::super::MAX_PROBLEMS);
        assert_eq!(e.not_listed, 150);
        assert!(e.to_string().ends_with("body: 150 more problems"), "{e}");
    }

    /// A unit in lower case is the same code: read in capitals, from the column and from the
    /// caller's default alike.
    #[test]
    fn units_are_read_in_capitals() {
        let parsed = parse_minimal("nuts_code,period,value,unit\nDE21,2023,1,pc\n", true).unwrap();
        assert_eq!(parsed.rows[0].unit, "PC");
        let defaults = Defaults {
            dataset: Some("mine"),
            unit: Some("eur_hab"),
            ..Default::default()
        };
        let parsed = parse("f", b"nuts_code,period,value\nDE21,2023,1\n", defaults).unwrap();
        assert_eq!(parsed.rows[0].unit, "EUR_HAB");
    }

    /// Columns named as people often name them are told the name regintel reads.
    #[test]
    fn a_header_saying_region_or_year_is_told_the_names_to_use() {
        let e = parse_minimal("region,year,value\nDE21,2023,1\n", false).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.reason
                .contains("rename \"region\" to \"nuts_code\", \"year\" to \"period\""),
            "{e}"
        );
        let e = parse_minimal("GEO,TIME,Value\nDE21,2023,1\n", false).unwrap_err();
        assert!(
            e.reason.contains(
                "\"GEO\" to \"nuts_code\", \"TIME\" to \"period\", \"Value\" to \"value\""
            ),
            "{e}"
        );
        // A file so named is still recognised as tidy CSV, so the operator gets the hint too.
        assert!(is_header("region,year,value"));
        assert!(!is_header("region,year,obs_value"));
        // Where the column regintel reads is there, a look-alike is a dimension.
        let parsed =
            parse_minimal("nuts_code,period,value,region\nDE21,2023,1,north\n", false).unwrap();
        assert_eq!(parsed.dim_names, ["region"]);
    }
}
