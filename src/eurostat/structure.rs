//! A dataset's structure as Eurostat's SDMX 2.1 REST API gives it
//! (`sdmx/2.1/dataflow/ESTAT/{code}/latest?references=descendants&detail=referencepartial`): the
//! dataflow's name and update times, its dimensions, and the codelists they and its attributes
//! draw on, restricted to the codes the dataset uses. An SDMX-ML structure message
//! (SDMX-ML 2.1, <https://sdmx.org/standards-2/>: a `message:Structure`).

use std::collections::BTreeMap;

use anyhow::Context;

/// What a structure message says of one dataset.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Structure {
    /// The dataflow's English name.
    pub name: Option<String>,
    /// When its data and its structure last changed (the dataflow's `UPDATE_DATA` and
    /// `UPDATE_STRUCTURE` annotations, as written: `2026-09-15T11:00:00+0200`).
    pub update_data: Option<String>,
    pub update_structure: Option<String>,
    /// Its dimensions in order (lower case, as data files name them), each with its English
    /// name where the message gives one.
    pub dimensions: Vec<(String, Option<String>)>,
    /// English labels of codes, by dimension (lower case) or attribute (`obs_flag`), then code.
    pub labels: BTreeMap<String, BTreeMap<String, String>>,
}

const XML_LANG: (&str, &str) = ("http://www.w3.org/XML/1998/namespace", "lang");

/// The English `Name` child of `node`.
fn english_name(node: roxmltree::Node<'_, '_>) -> Option<String> {
    let names = node.children().filter(|c| c.has_tag_name_local("Name"));
    let mut first = None;
    for name in names {
        let text = name.text().unwrap_or("").trim().to_owned();
        if name.attribute(XML_LANG) == Some("en") {
            return Some(text);
        }
        first.get_or_insert(text);
    }
    first
}

trait LocalName {
    fn has_tag_name_local(&self, name: &str) -> bool;
}

impl LocalName for roxmltree::Node<'_, '_> {
    fn has_tag_name_local(&self, name: &str) -> bool {
        self.is_element() && self.tag_name().name() == name
    }
}

/// The id of the codelist a component (dimension or attribute) is enumerated by.
fn codelist_of(component: roxmltree::Node<'_, '_>) -> Option<String> {
    component
        .descendants()
        .find(|n| n.has_tag_name_local("Enumeration"))?
        .children()
        .find(|n| n.has_tag_name_local("Ref"))?
        .attribute("id")
        .map(str::to_owned)
}

/// Most nodes of a structure message's tree (about 100 MB of them at most).
const MAX_NODES: u32 = 1_000_000;

/// Reads a structure message; `code` names the dataset whose dataflow it must describe.
pub fn parse(xml: &str, code: &str) -> anyhow::Result<Structure> {
    let doc = roxmltree::Document::parse_with_options(
        xml,
        roxmltree::ParsingOptions {
            // Eurostat's messages declare no DTD; one that did could make entities expand.
            allow_dtd: false,
            // A dataset's partial codelists are tens of thousands of nodes; a message of tiny
            // elements could otherwise make the tree many times its text.
            nodes_limit: MAX_NODES,
        },
    )
    .context("the structure is not XML")?;
    let root = doc.root_element();
    anyhow::ensure!(
        root.tag_name().name() == "Structure",
        "the answer is not an SDMX structure message (its root is <{}>)",
        crate::error_text::shown(root.tag_name().name())
    );
    let mut structure = Structure::default();
    let dataflow = root
        .descendants()
        .filter(|n| n.has_tag_name_local("Dataflow"))
        .find(|n| {
            n.attribute("id")
                .is_some_and(|id| id.eq_ignore_ascii_case(code))
        })
        .with_context(|| format!("the structure describes no dataflow {code}"))?;
    structure.name = english_name(dataflow);
    for annotation in dataflow
        .descendants()
        .filter(|n| n.has_tag_name_local("Annotation"))
    {
        let child = |name: &str| {
            annotation
                .children()
                .find(|c| c.has_tag_name_local(name))
                .and_then(|c| c.text())
                .map(|t| t.trim().to_owned())
        };
        match child("AnnotationType").as_deref() {
            Some("UPDATE_DATA") => structure.update_data = child("AnnotationTitle"),
            Some("UPDATE_STRUCTURE") => structure.update_structure = child("AnnotationTitle"),
            _ => {}
        }
    }
    // Concepts name the dimensions; codelists name the codes.
    let concepts: BTreeMap<&str, String> = root
        .descendants()
        .filter(|n| n.has_tag_name_local("Concept"))
        .filter_map(|n| Some((n.attribute("id")?, english_name(n)?)))
        .collect();
    let codelists: BTreeMap<&str, BTreeMap<String, String>> = root
        .descendants()
        .filter(|n| n.has_tag_name_local("Codelist"))
        .filter_map(|list| {
            let codes = (list.children())
                .filter(|c| c.has_tag_name_local("Code"))
                .filter_map(|c| Some((c.attribute("id")?.to_owned(), english_name(c)?)))
                .collect();
            Some((list.attribute("id")?, codes))
        })
        .collect();
    let mut dimensions: Vec<(u32, String, Option<String>)> = Vec::new();
    for component in root
        .descendants()
        .filter(|n| n.has_tag_name_local("Dimension") || n.has_tag_name_local("Attribute"))
    {
        let Some(id) = component.attribute("id") else {
            continue;
        };
        let name = id.to_ascii_lowercase();
        if let Some(codes) = codelist_of(component).and_then(|c| codelists.get(c.as_str())) {
            structure.labels.insert(name.clone(), codes.clone());
        }
        if component.has_tag_name_local("Dimension") {
            let position = component
                .attribute("position")
                .and_then(|p| p.parse().ok())
                .unwrap_or(u32::MAX);
            dimensions.push((position, name, concepts.get(id).cloned()));
        }
    }
    dimensions.sort_by_key(|(position, ..)| *position);
    structure.dimensions = (dimensions.into_iter())
        .map(|(_, name, label)| (name, label))
        .collect();
    Ok(structure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_of_more_nodes_than_a_structure_has_is_refused() {
        let many = format!(
            "<Structure>{}</Structure>",
            "<a/>".repeat(MAX_NODES as usize)
        );
        let why = format!("{:#}", parse(&many, "x").unwrap_err());
        assert!(why.contains("nodes limit reached"), "{why}");
    }

    /// A dataflow with its descendants as Eurostat answered it for Comext's DS-045409 (recorded:
    /// tests/fixtures/eurostat/PROVENANCE.md).
    const RECORDED: &str =
        include_str!("../../tests/fixtures/eurostat/comext-dataflow-ds-045409.xml");

    #[test]
    fn a_recorded_dataflow_gives_its_name_dimensions_labels_and_updates() {
        let s = parse(RECORDED, "ds-045409").unwrap();
        assert_eq!(
            s.name.as_deref(),
            Some("EU trade since 1988 by HS2-4-6 and CN8")
        );
        assert_eq!(s.update_data.as_deref(), Some("2026-09-15T11:00:00+0200"));
        assert_eq!(
            s.update_structure.as_deref(),
            Some("2026-09-15T11:00:00+0200")
        );
        let names: Vec<&str> = s.dimensions.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(&names[..3], ["freq", "reporter", "partner"]);
        assert_eq!(s.dimensions[0].1.as_deref(), Some("Frequency"));
        assert_eq!(s.labels["freq"]["A"], "Annual");
        assert_eq!(s.labels["freq"]["M"], "Monthly");
    }

    #[test]
    fn answers_that_are_no_structure_of_the_dataset_are_refused() {
        let fault = include_str!("../../tests/fixtures/eurostat/fault-100-dataflow.xml");
        assert!(format!("{:#}", parse(fault, "ds-999999").unwrap_err()).contains("not an SDMX"));
        assert!(
            format!("{:#}", parse(RECORDED, "nama_10r_3gdp").unwrap_err())
                .contains("no dataflow nama_10r_3gdp")
        );
        assert!(parse("not xml", "x").is_err());
        let entities = r#"<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">]><Structure>&a;</Structure>"#;
        assert!(parse(entities, "x").is_err(), "no DTD");
    }
}
