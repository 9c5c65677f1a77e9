use super::super::ParsedFile;
use super::tests::parse;
use super::*;

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

/// Past [`super::super::MAX_PROBLEMS`], problems are counted, not listed.
#[test]
fn problems_past_the_bound_are_counted() {
    let mut text = String::from("nuts_code,period,value\n");
    for i in 0..250 {
        text.push_str(&format!("DE{i},2023,bad\n"));
    }
    let e = parse_minimal(&text, false).unwrap_err();
    assert_eq!(e.problems().count(), super::super::MAX_PROBLEMS);
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
        e.reason
            .contains("\"GEO\" to \"nuts_code\", \"TIME\" to \"period\", \"Value\" to \"value\""),
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
