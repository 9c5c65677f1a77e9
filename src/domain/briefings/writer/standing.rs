//! How a region stands among its peers: its ranks within its country and across countries, and
//! its gaps to its parent, its country and the EU, each in the series a comparison across
//! countries is made in (purchasing power standards where the data hold them).

use super::*;

impl Writer<'_> {
    /// Ranks and comparisons: within the country (the level's regions, the parent's children,
    /// the parent, the country), then across countries (the EU's regions, the EU figure).
    pub(super) fn peers(
        &mut self,
        text: &mut String,
        name: &str,
        region: &RegionRow,
        fact: &Fact,
        c: &Comparators,
    ) -> Result<(), Error> {
        let own = fact.own();
        if own.is_unreliable() {
            text.push_str(&format!(
                " Its figure is {}, so it is neither ranked nor compared.",
                wording::unreliable_because(own)
            ));
            return Ok(());
        }
        let base = series::index_base(&fact.unit);
        if let Some(base) = base {
            // An index ranks and compares as growth since its base year: not across a break.
            let window = fact.window(&base.to_string(), &own.period);
            if window.iter().any(|r| r.flags.contains('b')) {
                return Ok(());
            }
        }
        let measure = match base {
            Some(base) => format!("growth since {base} in {}", fact.measure),
            None => fact.measure.clone(),
        };
        let within = Across {
            series_id: fact.series_id,
            own: own.clone(),
            unit: fact.unit.clone(),
            measure,
            unadjusted: false,
            standards: None,
        };
        for group in [&c.in_country, &c.in_parent].into_iter().flatten() {
            self.rank(text, (name, region), fact, group, &within)?;
        }
        for (comparator, named) in [&c.parent, &c.country].into_iter().flatten() {
            self.gap(text, name, comparator, named, &within)?;
        }
        let Some(across) = self.across_countries(region, fact, within)? else {
            return Ok(());
        };
        let mut said = String::new();
        if let Some(group) = &c.across {
            self.rank(&mut said, (name, region), fact, group, &across)?;
        }
        if let Some(eu) = &c.eu {
            self.gap(&mut said, name, eu, "the EU", &across)?;
        }
        if said.is_empty() {
            return Ok(());
        }
        if let Some(label) = &across.standards {
            let value = self
                .book
                .direct(&across.own)
                .expect("stated rows have values");
            text.push_str(&format!(
                " Across countries, in purchasing power standards ({label}), which adjust for price levels, {name}'s figure for {} is {value}.",
                across.own.period
            ));
        }
        text.push_str(&said);
        Ok(())
    }

    /// The series to compare across countries: money in euro is not adjusted for price levels,
    /// so where the dataset holds it in purchasing power standards, those; else the euro
    /// figures, said to be unadjusted. None for national currencies, which no comparison across
    /// countries can use.
    fn across_countries(
        &mut self,
        region: &RegionRow,
        fact: &Fact,
        within: Across,
    ) -> Result<Option<Across>, Error> {
        if fact.unit.contains("NAC") {
            return Ok(None);
        }
        if !series::in_euro(&fact.unit) {
            return Ok(Some(within));
        }
        let (_, dims) = fact.dataset.headline().map_err(Error::internal)?;
        let chosen = Chosen {
            id: fact.series_id,
            unit: fact.unit.clone(),
            dims: dims.clone(),
        };
        let all = self.store.series_of(fact.dataset.id)?;
        let adjusted = series::other_unit(&all, &chosen, series::price_adjusted_rank(&fact.unit));
        let in_standards = match &adjusted {
            Some(alt) => self
                .store
                .value_at(&region.code, alt.id, &within.own.period)?
                .filter(|r| stated(r) && !r.is_unreliable()),
            None => None,
        };
        let (Some(alt), Some(row)) = (adjusted, in_standards) else {
            return Ok(Some(Across {
                unadjusted: true,
                ..within
            }));
        };
        let label = self.unit_label(&fact.dataset, &alt.unit);
        Ok(Some(Across {
            series_id: alt.id,
            own: row,
            unit: alt.unit,
            measure: format!("{} in purchasing power standards", within.measure),
            unadjusted: false,
            standards: Some(label),
        }))
    }

    /// "Of the 38 NUTS 2 regions of Deutschland, Oberbayern has the second-highest unemployment
    /// rate (tied with Schwaben)." Regions of low reliability are left out and named; a group
    /// of fewer than three, or one that covers too little of the EU, is not ranked among.
    fn rank(
        &mut self,
        text: &mut String,
        (name, region): (&str, &RegionRow),
        fact: &Fact,
        group: &Group,
        across: &Across,
    ) -> Result<(), Error> {
        // Countries are of every edition; an account's dataset, whose edition regintel does not
        // know, counts in whichever its values are of, like one of mixed codes.
        let edition = match group.among {
            Among::Countries => None,
            _ => Some(fact.dataset.nuts_edition.as_deref().unwrap_or("mixed")),
        };
        let since = series::index_base(&across.unit);
        let Some(ranked) = peers::ranked(
            self.store,
            group,
            (region, &across.own),
            across.series_id,
            edition,
            since,
        )?
        else {
            return Ok(());
        };
        let eu_wide = matches!(group.among, Among::Eu | Among::MemberStates);
        // Among a parent's children, only with enough others of the dataset's edition.
        let parents = matches!(group.among, Among::Parent(_));
        let too_few_siblings = ranked.total.unwrap_or(group.others.len() + 1) <= PARENT_PEERS;
        if ranked.rows.len() < RANKED_AT_LEAST
            || (eu_wide && !ranked.covers_the_eu())
            || (parents && too_few_siblings)
        {
            return Ok(());
        }
        let rows: Vec<&ObsRow> = ranked.rows.iter().collect();
        let value = across.own.value;
        let above = rows[1..].iter().filter(|r| r.value > value).count();
        let below = rows[1..].iter().filter(|r| r.value < value).count();
        let operation = if above <= below {
            Operation::Rank
        } else {
            Operation::RankFromBottom
        };
        // The count names the rank's inputs rather than listing them again.
        let Some(rank) = self.book.derived(operation, &rows, &[]) else {
            return Ok(());
        };
        let count = self.book.count_of_last().expect("the rank was made");
        // "NUTS 2" names a level of the classification, not a figure.
        let level = self.label(format!("NUTS {}", group.level), false);
        let whom = match &group.among {
            Among::Country(country) => format!("{level} regions of {country}"),
            Among::Eu => format!("{level} regions of EU member states"),
            Among::MemberStates => "EU member states".to_owned(),
            Among::Countries => "countries".to_owned(),
            Among::Parent(parent) => format!("regions of {parent}"),
        };
        let with = if ranked.complete() {
            String::new()
        } else if !ranked.broken.is_empty() {
            format!(" with a comparable figure for {}", across.own.period)
        } else if !ranked.excluded.is_empty() {
            format!(" with a reliable figure for {}", across.own.period)
        } else {
            format!(" with a figure for {}", across.own.period)
        };
        let tied: Vec<String> = ranked
            .rows
            .iter()
            .zip(&ranked.regions)
            .filter(|(r, _)| r.value == value)
            .filter_map(|(_, region)| region.as_deref().map(|r| self.name_of(r)))
            .collect();
        let tied = match tied.is_empty() {
            true => String::new(),
            false => format!(" (tied with {})", listed(&tied, NAMED)),
        };
        text.push_str(&format!(
            " Of the {count} {whom}{with}, {name} has the {rank} {}{}{tied}.",
            across.measure,
            across.unadjusted_note()
        ));
        for (left_out, why) in [
            (
                &ranked.excluded,
                "as of low reliability or confidential".to_owned(),
            ),
            (
                &ranked.broken,
                format!("as their series break since {}", since.unwrap_or_default()),
            ),
        ] {
            if !left_out.is_empty() {
                let names: Vec<String> = left_out.iter().map(|r| self.name_of(r)).collect();
                text.push_str(&format!(
                    " Left out of that ranking {why}: {}.",
                    listed(&names, NAMED)
                ));
            }
        }
        Ok(())
    }

    /// The region against a larger one (its parent, its country, the EU): "The figure for
    /// Deutschland is 46,300; Oberbayern is 45.1 % above it.", for totals its share ("The total
    /// for Deutschland is 83,237,124; Oberbayern accounts for 5.7 % of it."), for an index the
    /// larger region's growth since the base year.
    fn gap(
        &mut self,
        text: &mut String,
        name: &str,
        comparator: &RegionRow,
        comparator_name: &str,
        across: &Across,
    ) -> Result<(), Error> {
        let own = &across.own;
        let Some(larger) = self
            .store
            .value_at(&comparator.code, across.series_id, &own.period)?
            .filter(stated)
        else {
            return Ok(());
        };
        let note = match &across.standards {
            Some(_) => " in purchasing power standards",
            None => across.unadjusted_note(),
        };
        if larger.is_unreliable() {
            text.push_str(&format!(
                " The figure for {comparator_name}{note} is {} and not compared.",
                wording::unreliable_because(&larger)
            ));
            return Ok(());
        }
        if let Some(base) = series::index_base(&across.unit) {
            return self.index_gap(text, across, comparator, comparator_name, &larger, base);
        }
        if series::is_total(&across.unit) {
            let figure = self.book.direct(&larger).expect("stated rows have values");
            // A total of zero has no shares: its figure is stated alone.
            match (self.book).derived_reading(Operation::Share, &[&larger, own], &[], "%") {
                Some(share) => text.push_str(&format!(
                    " The total for {comparator_name}{note} is {figure}; {name} accounts for {share} of it."
                )),
                None => text.push_str(&format!(
                    " The total for {comparator_name}{note} is {figure}."
                )),
            }
            return Ok(());
        }
        let Some(reading) = self.relative(&larger, own, &across.unit, &[], ("above", "below"))
        else {
            return Ok(());
        };
        let figure = self.book.direct(&larger).expect("stated rows have values");
        match reading {
            Reading::By(reads) => text.push_str(&format!(
                " The figure for {comparator_name}{note} is {figure}; {name} is {reads} it."
            )),
            Reading::Times(reads) => text.push_str(&format!(
                " The figure for {comparator_name}{note} is {figure}; {name}'s is {reads} as high."
            )),
            Reading::Same => text.push_str(&format!(
                " The figure for {comparator_name}{note} is about the same, {figure}."
            )),
        }
        Ok(())
    }

    /// A larger region's growth since the base year of an index, where its series does not
    /// break since: "In France it is 9.7 % more than in 2015 (109.7)."
    fn index_gap(
        &mut self,
        text: &mut String,
        across: &Across,
        comparator: &RegionRow,
        comparator_name: &str,
        larger: &ObsRow,
        base: u16,
    ) -> Result<(), Error> {
        let series = self.store.series_rows(&comparator.code, across.series_id)?;
        let window: Vec<&ObsRow> = series
            .iter()
            .filter(|r| year(&r.period).is_some_and(|y| y >= i32::from(base)))
            .filter(|r| r.period <= larger.period)
            .collect();
        if window.iter().any(|r| r.flags.contains('b')) {
            return Ok(());
        }
        let figure = self.book.direct(larger).expect("stated rows have values");
        if let Some(reads) = self.growth(larger, &window) {
            text.push_str(&format!(
                " In {comparator_name} it is {reads} than in {base} ({figure})."
            ));
        }
        Ok(())
    }
}

/// The series a comparison is made in, and how the text says so.
struct Across {
    series_id: i64,
    /// The region's own value in it.
    own: ObsRow,
    unit: String,
    /// The measure as a rank names it.
    measure: String,
    /// Euro compared across countries: not adjusted for price levels, and said so.
    unadjusted: bool,
    /// In purchasing power standards: the unit's label, for the sentence that says so.
    standards: Option<String>,
}

impl Across {
    fn unadjusted_note(&self) -> &'static str {
        if self.unadjusted {
            " (in euro, not adjusted for price levels)"
        } else {
            ""
        }
    }
}
