use std::collections::HashMap;

use super::super::claims::{ClaimBook, Operation};
use super::*;
use crate::bundled::Catalogue;
use crate::store::observations::ObsRow;

fn row(citation: &str, period: &str, value: f64, text: &str) -> ObsRow {
    ObsRow {
        citation_id: crate::citation_id::CitationId::new(citation).unwrap(),
        series_id: 1,
        period: period.into(),
        value: Some(value),
        value_text: text.into(),
        flags: Default::default(),
        conf_status: Default::default(),
        snapshot_id: 1,
    }
}

/// Population at two periods, the claims a writer makes of them, and the text it writes.
fn written_at(then_period: &str, now_period: &str) -> (Vec<ObsRow>, Vec<Claim>, String) {
    let rows = vec![
        row("cit_a", then_period, 4_633_323.0, "4633323"),
        row("cit_b", now_period, 4_729_243.0, "4729243"),
    ];
    let catalogue = Catalogue::bundled();
    let mut book = ClaimBook::new(&catalogue);
    let now = book.direct(&rows[1]).unwrap();
    let then = book.direct(&rows[0]).unwrap();
    let change = book
        .derived_reading(
            Operation::PercentChange,
            &[&rows[0], &rows[1]],
            &[],
            "% more",
        )
        .unwrap();
    let text = format!(
        "Population in DE21 Oberbayern: {now} in {now_period}. That is {change} than in {then_period} ({then})."
    );
    (rows, book.claims, text)
}

fn written() -> (Vec<ObsRow>, Vec<Claim>, String) {
    written_at("2017", "2022")
}

fn check(rows: &[ObsRow], claims: &[Claim], text: &str) -> Result<Verification, String> {
    check_by(rows, claims, text, Author::Writer)
}

fn check_by(
    rows: &[ObsRow],
    claims: &[Claim],
    text: &str,
    author: Author,
) -> Result<Verification, String> {
    check_all(rows, claims, text, author, &[], &[])
}

/// The verifier on `text`, the rows of `rows` (in unit `I15` when their citation says
/// `index`), the label "Physicians per 100 000 inhabitants" from the catalogue and
/// `private` labels of an account's dataset.
fn check_all(
    rows: &[ObsRow],
    claims: &[Claim],
    text: &str,
    author: Author,
    private: &[&str],
    breaks: &[Break],
) -> Result<Verification, String> {
    let by_id: HashMap<&str, &ObsRow> = rows.iter().map(|r| (r.citation_id.as_str(), r)).collect();
    let mut lookup = |id: &str| {
        // Rows of Oberbayern, but those whose citation names Bayern (`_by`) or Hamburg (`_hh`).
        let (region, name) = match id {
            id if id.contains("_by") => ("DE2", "Bayern"),
            id if id.contains("_hh") => ("DE60", "Hamburg"),
            _ => ("DE21", "Oberbayern"),
        };
        Ok(by_id.get(id).map(|r| CitedRow {
            period: r.period.to_string(),
            region: region.into(),
            region_name: name.into(),
            value: r.value,
            value_text: r.value_text.to_string(),
            unit: match id {
                id if id.contains("index") => "I15",
                id if id.contains("km2") => "PER_KM2",
                _ => "NR",
            }
            .into(),
            flags: r.flags.to_string(),
            conf_status: r.conf_status.to_string(),
        }))
    };
    let sections = [Section {
        heading: "Physicians per 100 000 inhabitants".into(),
        text: text.into(),
    }];
    let mut labels = vec![
        Label {
            text: "Physicians per 100 000 inhabitants".to_owned(),
            private: false,
        },
        Label {
            text: String::new(),
            private: false,
        },
    ];
    labels.extend(private.iter().map(|p| Label {
        text: (*p).to_owned(),
        private: true,
    }));
    verify(&mut lookup, &sections, claims, &labels, breaks, author)
        .unwrap()
        .map(|c| c.verification)
}

#[test]
fn a_faithful_text_is_verified() {
    let (rows, claims, text) = written();
    assert!(
        text.contains("4,729,243") && text.contains("2.1 % more"),
        "{text}"
    );
    let v = check(&rows, &claims, &text).unwrap();
    assert_eq!((v.numbers_checked, v.claims_checked), (3, 3));
    assert!(check_by(&rows, &claims, &text, Author::Model).is_ok());
}

#[test]
fn periods_of_any_format_are_years_in_a_date_position() {
    for (then, now) in [
        ("2017-Q1", "2022-Q1"),
        ("2017-07", "2022-07"),
        ("2017-S1", "2022-S1"),
        // A year that begins a month cited too is not blanked out of it.
        ("2022", "2022-07"),
    ] {
        let (rows, claims, text) = written_at(then, now);
        assert!(check(&rows, &claims, &text).is_ok(), "{text}");
    }
    let (rows, claims, text) = written();
    for date in [
        "Since 2017 it grew.",
        "It has a figure for 2017.",
        "From 2017 to 2022.",
    ] {
        let dated = format!("{text} {date}");
        assert!(check(&rows, &claims, &dated).is_ok(), "{date}");
    }
    // A cited period used as a count, an amount or after "a" is a number like any other.
    for not_a_date in [
        "It lost 2017 jobs.",
        "It has a 2017 % margin.",
        "It has a 2017 figure.",
        "It grew in 2017 % terms.",
        "It is in 2017 percent.",
        "It spent in 2017 euro.",
    ] {
        let counted = format!("{text} {not_a_date}");
        assert!(check(&rows, &claims, &counted).is_err(), "{not_a_date}");
    }
}

#[test]
fn an_invented_or_altered_number_is_refused() {
    let (rows, claims, text) = written();
    let invented = text.replace("than in", "than the 12 cities and than in");
    let why = check(&rows, &claims, &invented).unwrap_err();
    assert!(why.contains("12"), "{why}");
    // A rounded or re-formatted value is not the claim either.
    let rounded = text.replace("4,729,243", "4.7 million");
    assert!(check(&rows, &claims, &rounded).is_err());
    let ordinal = format!("{text} It ranks 3rd.");
    assert!(check(&rows, &claims, &ordinal).is_err());
    // A year that is no cited period is a number like any other.
    let year = format!("{text} Since 1990.");
    assert!(check(&rows, &claims, &year).is_err());
}

/// Numbers are found on characters: behind a non-breaking or narrow space, a currency sign,
/// an en or em dash or a letter of another script, they are numbers, and must be claims,
/// whoever wrote the text.
#[test]
fn numbers_behind_non_ascii_characters_are_numbers() {
    let (rows, claims, text) = written();
    for hidden in [
        "Oberbayern:\u{a0}45 (Percentage).",
        "It has\u{202f}12 towns.",
        "It gained €4521.",
        "It changed by –99.",
        "It changed by —99.",
        "Its rate is é5.",
    ] {
        let tricked = format!("{text} {hidden}");
        let why = check(&rows, &claims, &tricked).unwrap_err();
        assert!(why.contains("not a claim"), "{hidden}: {why}");
        assert!(check_by(&rows, &claims, &tricked, Author::Model).is_err());
    }
}

#[test]
fn a_model_is_held_to_the_letter() {
    let (rows, claims, text) = written();
    for trick in [
        "It has EUR45,000 more.",
        "It grew by \u{2212}3.5.",
        "It has \u{200B}12 towns.",
        "It has \u{0661}\u{0662} towns.",
        "It has \u{FF11}\u{FF12} towns.",
        "It has x\u{B2} towns.",
        "Twelve towns grew.",
        "Its output doubled.",
        "It is the third region.",
        "It has the largest output.",
        // Spaces and dashes other than ASCII ones, even without a digit.
        "It grew\u{a0}fast.",
        "It grew \u{2013} fast.",
        "It grew\u{202f}fast.",
    ] {
        let tricked = format!("{text} {trick}");
        assert!(
            check_by(&rows, &claims, &tricked, Author::Model).is_err(),
            "{trick}"
        );
    }
    for (trick, refused_for) in [
        // A letter beyond ASCII may be a digit's look-alike (Cyrillic Ze for 3).
        ("It grew by \u{0417}.5 points.", "U+0417"),
        ("Thirteen towns grew.", "number word \"Thirteen\""),
        ("It has sixty towns.", "number word \"sixty\""),
        ("Its output grew tenfold.", "number word \"tenfold\""),
        ("It is the thirtieth region.", "number word \"thirtieth\""),
        ("It is at the top.", "rank word \"top\""),
        ("It is the richest region.", "rank word \"richest\""),
        ("It came last.", "rank word \"last\""),
        // A cited number compared or made a percentage where no claim reads so.
        ("It has 4,633,323 more people.", "\"more\" after 4,633,323"),
        (
            "Some 4,633,323 fewer lived there.",
            "\"fewer\" after 4,633,323",
        ),
        ("It fell by 4,633,323.", "\"fell\" before 4,633,323"),
        ("It changed by 4,633,323.", "\"by\" before 4,633,323"),
        ("It has 4,633,323 per cent.", "\"cent\" after 4,633,323"),
        ("It has 4,633,323 pp.", "\"pp\" after 4,633,323"),
        ("Its 2.1 % more is lower.", "\"lower\" after 2.1"),
        ("It has a 4,729,243 % share.", "% after no claim"),
        // A cited year as a count: "in" does not make it a date before any word.
        ("It grew in 2017 towns.", "the number 2017"),
    ] {
        let tricked = format!("{text} {trick}");
        let why = check_by(&rows, &claims, &tricked, Author::Model).unwrap_err();
        assert!(why.contains(refused_for), "{trick}: {why}");
    }
    // Flipping the direction of a change is refused, writer or model.
    let flipped = text.replace("% more", "% less");
    assert!(check_by(&rows, &claims, &flipped, Author::Model).is_err());
    // A model may leave claims out; those it states must still hold.
    let shorter = text.replace("4,729,243 in 2022", "a new high");
    assert!(check(&rows, &claims, &shorter).is_err());
    let v = check_by(&rows, &claims, &shorter, Author::Model).unwrap();
    assert_eq!(v.claims_checked, 2);
    // What a model may write: typographic quotes, a date before a word that follows one, a
    // claim's percentage as it reads.
    let plain = format!(
        "{shorter} In 2017 it had \u{201C}fewer\u{201D} people; it\u{2019}s grown since 2017 and its population is larger."
    );
    assert!(check_by(&rows, &claims, &plain, Author::Model).is_ok());
    // The writer's own phrasing keeps a date before any word.
    let dated = format!("{text} It grew in 2017 towns.");
    assert!(check(&rows, &claims, &dated).is_ok());
}

/// A name of the catalogue with a dash or digits may be quoted by anyone; one of an
/// account's own datasets only by the writer: in a model's text, its digits are numbers.
#[test]
fn labels_of_an_accounts_datasets_are_no_exemption_for_a_model() {
    let (rows, claims, text) = written();
    let quoted = format!("{text} It is Jobs 2019 \u{2013} 45 in our own dataset.");
    let private = ["Jobs 2019 \u{2013} 45"];
    assert!(check_all(&rows, &claims, &quoted, Author::Writer, &private, &[]).is_ok());
    let why = check_all(&rows, &claims, &quoted, Author::Model, &private, &[]).unwrap_err();
    assert!(
        why.contains("U+2013") || why.contains("not a claim"),
        "{why}"
    );
}

/// A label is a name only where it stands whole: a dataset titled "1", "2.1" or "4,729"
/// leaves the numbers it is part of to be checked as numbers.
#[test]
fn labels_are_blanked_only_where_they_stand_whole() {
    let (rows, claims, text) = written();
    for title in ["1", "2", "2.1", "4,729", "729,243", "Population in DE"] {
        let quoted = format!("{title}: {text}");
        let v = check_all(&rows, &claims, &quoted, Author::Writer, &[title], &[]);
        assert!(v.is_ok(), "{title}: {v:?}");
    }
    let spans = label_spans("A 1 in 10, 1.5, 0.1, x1 and (1).", &["1"]);
    assert_eq!(spans, [(2..3, 0), (29..30, 0)]);
    // Overlapping titles both stand: a number in either is in a name.
    let spans = label_spans(
        "5 Jobs in Oberbayern: 12",
        &["Jobs in Oberbayern", "5 Jobs"],
    );
    assert_eq!(spans, [(0..6, 1), (2..20, 0)]);
}

#[test]
fn a_claim_that_does_not_hold_is_refused() {
    let (rows, mut claims, text) = written();
    // The claim says what the text says, but the row says otherwise.
    claims[0].value = 4_729_244.0;
    assert!(check(&rows, &claims, &text).unwrap_err().contains("c1"));
    let (rows, mut claims, text) = written();
    claims[2].inputs[0].value = 4_000_000.0;
    assert!(check(&rows, &claims, &text).is_err());
    let (_, claims, text) = written();
    assert!(
        check(&[], &claims, &text).is_err(),
        "rows that do not exist"
    );
    // A reading whose direction word contradicts the inputs.
    let (rows, mut claims, text) = written();
    claims[2].reads = Some("2.1 % less".into());
    let text = text.replace("% more", "% less");
    assert!(check(&rows, &claims, &text).unwrap_err().contains("less"));
}

/// A claim carries the flags of its rows and of the values between them, and only flags
/// those rows have.
#[test]
fn a_claims_flags_are_its_rows_flags() {
    let catalogue = Catalogue::bundled();
    let mut rows = vec![
        row("cit_a", "2017", 4.0, "4.0"),
        row("cit_m", "2019", 4.5, "4.5"),
        row("cit_b", "2022", 5.0, "5.0"),
    ];
    rows[1].flags = "p".into();
    rows[2].flags = "e".into();
    let mut book = ClaimBook::new(&catalogue);
    let change = book
        .derived_reading(
            Operation::PercentChange,
            &[&rows[0], &rows[2]],
            &[&rows[0], &rows[1], &rows[2]],
            "% more",
        )
        .unwrap();
    let claims = book.claims;
    let carried: Vec<(&str, &str)> = claims[0]
        .flags
        .iter()
        .map(|f| (f.citation.as_str(), f.code.as_str()))
        .collect();
    assert_eq!(carried, [("cit_b", "e"), ("cit_m", "p")]);
    let text = format!("That is {change} than in 2017.");
    assert!(check(&rows, &claims, &text).is_ok());
    let mut dropped = claims.clone();
    dropped[0].flags.retain(|f| f.citation != "cit_b");
    let why = check(&rows, &dropped, &text).unwrap_err();
    assert!(why.contains("flag e of cit_b"), "{why}");
    let mut invented = claims.clone();
    invented[0].flags[1].code = "b".into();
    let why = check(&rows, &invented, &text).unwrap_err();
    assert!(why.contains("cit_m carries no flag b"), "{why}");
}

/// Ranks are claims written as phrases: "second-highest" must be a rank claim's display,
/// and no rank phrase may stand without one.
#[test]
fn rank_phrases_are_claims() {
    let catalogue = Catalogue::bundled();
    let rows = vec![
        row("cit_a", "2022", 2.7, "2.7"),
        row("cit_b", "2022", 2.8, "2.8"),
        row("cit_c", "2022", 2.0, "2.0"),
    ];
    let all: Vec<&ObsRow> = rows.iter().collect();
    let mut book = ClaimBook::new(&catalogue);
    let rank = book.derived(Operation::Rank, &all, &[]).unwrap();
    let count = book.count_of_last().unwrap();
    assert_eq!((rank.as_str(), count.as_str()), ("second-highest", "3"));
    let claims = book.claims;
    assert_eq!(claims[1].inputs_of.as_deref(), Some("c1"));
    assert!(
        claims[1].inputs.is_empty(),
        "the rank's inputs are not listed twice"
    );
    let text = format!("Of the {count} regions with a figure for 2022, it has the {rank} rate.");
    let v = check(&rows, &claims, &text).unwrap();
    assert_eq!(v.claims_checked, 2);
    assert!(check_by(&rows, &claims, &text, Author::Model).is_ok());
    for wrong in ["highest", "third-highest", "second-lowest", "2nd-highest"] {
        let text = text.replace("second-highest", wrong);
        let why = check_by(&rows, &claims, &text, Author::Model).unwrap_err();
        assert!(
            why.contains("rank") || why.contains("not a claim"),
            "{wrong}: {why}"
        );
    }
    // One rank claim lends its phrase once: a model may not give a second measure the
    // same rank.
    let twice = format!("{text} It also has the second-highest age.");
    assert!(check(&rows, &claims, &twice).is_ok());
    let why = check_by(&rows, &claims, &twice, Author::Model).unwrap_err();
    assert!(why.contains("one already stated"), "{why}");
    let extra = format!("{text} It also has the lowest age.");
    assert!(
        check(&rows, &claims, &extra)
            .unwrap_err()
            .contains("lowest")
    );
    // A count that names no claim with inputs is refused.
    let mut dangling = claims.clone();
    dangling[1].inputs_of = Some("c9".into());
    let why = check(&rows, &dangling, &text).unwrap_err();
    assert!(why.contains("names c9"), "{why}");
    let mut miscounted = claims.clone();
    miscounted[1].value = 4.0;
    assert!(check(&rows, &miscounted, &text).is_err());
}

/// An index's base year is a period the text may write as a date; a break the text names
/// must be a row flagged b, and its period is one too.
#[test]
fn base_years_and_breaks_are_periods() {
    let catalogue = Catalogue::bundled();
    let mut rows = vec![
        row("cit_index", "2023", 107.9, "107.9"),
        row("cit_break", "2020", 99.0, "99.0"),
    ];
    rows[1].flags = "b".into();
    let mut book = ClaimBook::new(&catalogue);
    let growth = book
        .derived_reading(Operation::IndexChange, &[&rows[0]], &[], "% more")
        .unwrap();
    assert_eq!(growth, "7.9 % more");
    let claims = book.claims;
    let text = format!("It is {growth} than in 2015. The series breaks in 2020.");
    let named = [Break {
        dataset: "x".into(),
        period: "2020".into(),
        citation: "cit_break".into(),
    }];
    let v = check_all(&rows, &claims, &text, Author::Writer, &[], &named).unwrap();
    assert_eq!(v.claims_checked, 1);
    // Without the break's row, 2020 is a number like any other.
    assert!(check_all(&rows, &claims, &text, Author::Writer, &[], &[]).is_err());
    // A break named on a row not flagged b is refused.
    rows[1].flags = "p".into();
    let why = check_all(&rows, &claims, &text, Author::Writer, &[], &named).unwrap_err();
    assert!(why.contains("no row flagged b"), "{why}");
}

/// Breaks in a list ("in 2017, 2019, 2021 and 2022") are dates, each after a date and a comma;
/// a period after a comma that follows no date is a number like any other.
#[test]
fn periods_listed_after_a_date_are_dates() {
    let mut rows = vec![row("cit_now", "2022", 446.0, "446")];
    let mut named = Vec::new();
    for year in ["2017", "2019", "2021"] {
        let mut flagged = row(&format!("cit_b{year}"), year, 1.0, "1");
        flagged.flags = "b".into();
        named.push(Break {
            dataset: "x".into(),
            period: year.into(),
            citation: format!("cit_b{year}"),
        });
        rows.push(flagged);
    }
    let catalogue = Catalogue::bundled();
    let mut book = ClaimBook::new(&catalogue);
    let now = book.direct(&rows[0]).unwrap();
    let text = format!(
        "Population: {now} in 2022. The series breaks in 2017, 2019, 2021 and 2022 (break in time series)."
    );
    for author in [Author::Writer, Author::Model] {
        let v = check_all(&rows, &book.claims, &text, author, &[], &named).unwrap();
        assert_eq!(v.claims_checked, 1);
    }
    let unlisted = format!("Population: {now}, 2019 in 2022.");
    let why = check_all(&rows, &book.claims, &unlisted, Author::Model, &[], &named).unwrap_err();
    assert!(why.contains("the number 2019"), "{why}");
}

/// Densities of Oberbayern, Bayern and Hamburg, the claims a writer makes of them (Oberbayern's,
/// Bayern's and how far Oberbayern lies above it; Hamburg's), and a faithful text.
fn densities() -> (Vec<ObsRow>, Vec<Claim>, String) {
    let rows = vec![
        row("cit_a_km2", "2022", 274.9, "274.9"),
        row("cit_by_km2", "2022", 188.2, "188.2"),
        row("cit_hh_km2", "2022", 2453.1, "2453.1"),
    ];
    let catalogue = Catalogue::bundled();
    let mut book = ClaimBook::new(&catalogue);
    let own = book.direct(&rows[0]).unwrap();
    let bayern = book.direct(&rows[1]).unwrap();
    let hamburg = book.direct(&rows[2]).unwrap();
    let above = book
        .derived_reading(
            Operation::PercentChange,
            &[&rows[1], &rows[0]],
            &[],
            "% above",
        )
        .unwrap();
    assert_eq!((own.as_str(), above.as_str()), ("274.9", "46.1 % above"));
    let text = format!(
        "Population density in Oberbayern: {own} (Persons per square kilometre) in 2022. The \
         figure for Bayern is {bayern}; Oberbayern is {above} it. Hamburg: {hamburg} in 2022."
    );
    (rows, book.claims, text)
}

/// What a model writes beside a claim it states exactly may still say another number: a sign,
/// a magnitude or unit that is not the claim's, arithmetic between claims, a number word, a
/// Roman numeral, a region the claim does not compare with. Each is refused with the reason;
/// codes that read as numerals but are a cited region's or a country's are not.
#[test]
fn a_model_says_no_more_beside_a_claim_than_the_claim() {
    let (rows, claims, text) = densities();
    let faithful = check_by(&rows, &claims, &text, Author::Model).unwrap();
    assert_eq!(faithful.claims_checked, 4);
    let with = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    };
    let refused = [
        (with(": 274.9", ": minus 274.9"), "\"minus\" before 274.9"),
        (with(": 274.9", ": negative 274.9"), "\"negative\" before"),
        (with(": 274.9", ": +274.9"), "arithmetic"),
        (
            with("274.9 (Persons", "274.9 bn (Persons"),
            "\"bn\" beside 274.9",
        ),
        (with("274.9 (Persons", "274.9 mln (Persons"), "\"mln\""),
        (with("274.9 (Persons", "274.9 bln (Persons"), "\"bln\""),
        (with("274.9 (Persons", "274.9 m (Persons"), "\"m\""),
        (with("274.9 (Persons", "274.9 K (Persons"), "\"k\""),
        (
            with("274.9 (Persons", "274.9 x 274.9 (Persons"),
            "x beside 274.9",
        ),
        (
            with("274.9 (Persons", "274.9 + 188.2 (Persons"),
            "arithmetic",
        ),
        (with("274.9 (Persons", "274.9/188.2 (Persons"), "arithmetic"),
        (with("274.9 (Persons", "274.9 squared (Persons"), "squared"),
        (
            with("274.9 (Persons", "274.9 - 188.2 (Persons"),
            "arithmetic",
        ),
        (
            with("274.9 (Persons", "274.9 euro (Persons"),
            "\"euro\" beside 274.9, which is not the unit",
        ),
        (
            with("274.9 (Persons", "EUR 274.9 (Persons"),
            "\"eur\" beside",
        ),
        (with("274.9 (Persons", "274.9 (Years)"), "\"years\""),
        (
            with("46.1 % above it", "46.1 % above Hamburg"),
            "names Hamburg after 46.1",
        ),
        (
            with("Hamburg: ", "Oberbayern is number one. Hamburg: "),
            "the number word \"one\"",
        ),
        (
            with("Hamburg: ", "It is one of them. Hamburg: "),
            "the number word \"one\"",
        ),
        (
            with("Hamburg: ", "It ranks XII. Hamburg: "),
            "\"XII\", a Roman numeral",
        ),
        (
            with("Hamburg: ", "In MMXXII it grew. Hamburg: "),
            "Roman numeral",
        ),
        (
            with("Hamburg: ", "First among them. Hamburg: "),
            "\"First\"",
        ),
        (with(": 274.9", ": - 274.9"), "\"-\" before"),
        (with(": 274.9", ": minus-274.9"), "\"minus\" before"),
        (with(": 274.9", ": minus (274.9)"), "\"minus\" before"),
        (with(": 274.9", ": EUR bn 274.9"), "\"bn\" beside"),
        (with(": 274.9", ": USD: 274.9"), "\"usd\" beside"),
        (
            with("274.9 (Persons", "274.9 (in EUR bn) (Persons"),
            "\"eur\" beside",
        ),
        (with("274.9 (Persons", "274.9-bn (Persons"), "\"bn\" beside"),
        (
            with("274.9 (Persons", "274.9 > 188.2 (Persons"),
            "arithmetic",
        ),
        (with("274.9 (Persons", "274.9:188.2 (Persons"), "arithmetic"),
        (with("274.9 (Persons", "274.9 mm (Persons"), "\"mm\" beside"),
        (
            with("46.1 % above it", "46.1 % above hamburg"),
            "names Hamburg after 46.1",
        ),
        (
            with("46.1 % above it", "46.1 % above DE60"),
            "names DE60 after 46.1",
        ),
        (with("Hamburg: ", "It ranks VI. Hamburg: "), "Roman numeral"),
        (
            with("Hamburg: ", "In MM it grew. Hamburg: "),
            "Roman numeral",
        ),
    ];
    for (smuggled, reason) in &refused {
        let why = check_by(&rows, &claims, smuggled, Author::Model).unwrap_err();
        assert!(why.contains(reason), "{smuggled}\n{why}");
    }
    for fine in [
        with(
            "Hamburg: ",
            "Liechtenstein (LI) and Latvia (LV) are not compared. Hamburg: ",
        ),
        with("46.1 % above it", "46.1 % above Bayern"),
        with("46.1 % above it", "46.1 % above it, as in DE2"),
        with("274.9 (Persons", "274.9 - as published - (Persons"),
        with(
            "274.9 (Persons per square kilometre)",
            "274.9 persons per square kilometre",
        ),
        with(
            "The figure for Bayern",
            "Compared with Bayern, the figure for Bayern",
        ),
    ] {
        assert!(
            check_by(&rows, &claims, &fine, Author::Model).is_ok(),
            "{fine}"
        );
    }
}

#[test]
fn roman_numerals_are_told_from_words() {
    for numeral in ["XII", "MMXXII", "IV", "XL", "CD", "LI", "MCMXCIV"] {
        assert!(roman_numeral(numeral), "{numeral}");
    }
    for word in [
        "I", "IIII", "VX", "IC", "XIIII", "Mix", "xii", "DE", "LX1", "MMMM",
    ] {
        assert!(!roman_numeral(word), "{word}");
    }
}
