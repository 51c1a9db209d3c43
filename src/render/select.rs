//! Output of `fleetplan select`: the clusters a selector matched.

use serde::Serialize;

use super::escape::{terminal, terminal_line};
use super::{json_document, table, Unrepresentable};
use crate::model::{Cluster, Interned, Labels};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SelectionFormat {
    Table,
    Name,
    Json,
    Yaml,
}

/// What was asked and what matched, ready to print.
pub(crate) struct Selection<'a> {
    /// Canonical text of the label selector (`""` = everything).
    pub label_selector: String,
    /// Canonical text of the claim selector.
    pub claim_selector: String,
    /// Label keys the selectors used: the table shows their values.
    pub label_keys: Vec<String>,
    /// Claim names the claim selector used.
    pub claim_keys: Vec<String>,
    /// Sorted by name.
    pub clusters: Vec<&'a Cluster>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SelectionDocument<'a> {
    label_selector: &'a str,
    claim_selector: &'a str,
    clusters: Vec<ClusterDocument<'a>>,
}

#[derive(Serialize)]
struct ClusterDocument<'a> {
    name: &'a str,
    online: bool,
    labels: &'a Labels,
    #[serde(skip_serializing_if = "Labels::is_empty")]
    claims: &'a Labels,
}

/// Renders the selection; `width` fits the table to a terminal.
pub(crate) fn render(
    selection: &Selection<'_>,
    format: SelectionFormat,
    width: Option<u16>,
) -> Result<String, Unrepresentable> {
    match format {
        SelectionFormat::Name => Ok(selection
            .clusters
            .iter()
            .map(|cluster| format!("{}\n", terminal_line(&cluster.name)))
            .collect()),
        SelectionFormat::Table => Ok(terminal(&render_table(selection, width)).into_owned()),
        SelectionFormat::Json => json_document(&document(selection)),
        SelectionFormat::Yaml => Ok(crate::yaml11::to_string(&document(selection))?),
    }
}

fn document<'a>(selection: &'a Selection<'_>) -> SelectionDocument<'a> {
    SelectionDocument {
        label_selector: &selection.label_selector,
        claim_selector: &selection.claim_selector,
        clusters: selection
            .clusters
            .iter()
            .map(|cluster| ClusterDocument {
                name: &cluster.name,
                online: cluster.online,
                labels: &cluster.labels,
                claims: &cluster.claims,
            })
            .collect(),
    }
}

fn render_table(selection: &Selection<'_>, width: Option<u16>) -> String {
    let mut header = vec!["NAME".to_string()];
    header.extend(selection.label_keys.iter().cloned());
    header.extend(
        selection
            .claim_keys
            .iter()
            .map(|key| format!("claim:{key}")),
    );
    header.push("ONLINE".to_string());
    let rows = selection
        .clusters
        .iter()
        .map(|cluster| {
            let mut row = vec![cluster.name.clone()];
            let value = |map: &Labels, key: &String| map.get(key.as_str()).map(Interned::to_string);
            row.extend(
                selection
                    .label_keys
                    .iter()
                    .map(|key| value(&cluster.labels, key).unwrap_or_default()),
            );
            row.extend(
                selection
                    .claim_keys
                    .iter()
                    .map(|key| value(&cluster.claims, key).unwrap_or_default()),
            );
            row.push(cluster.online.to_string());
            row
        })
        .collect();
    table::render(header, rows, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    fn with<T>(f: impl FnOnce(&Selection<'_>) -> T) -> T {
        let a = cluster("a")
            .label("region", "eu")
            .claim("platform", "AWS")
            .build();
        let b = cluster("b")
            .label("region", "us")
            .claim("platform", "AWS")
            .offline()
            .build();
        f(&Selection {
            label_selector: "region".to_string(),
            claim_selector: "platform".to_string(),
            label_keys: vec!["region".to_string()],
            claim_keys: vec!["platform".to_string()],
            clusters: vec![&a, &b],
        })
    }

    #[test]
    fn names_are_printed_one_per_line() {
        let text = with(|s| render(s, SelectionFormat::Name, None));
        assert_eq!(text.ok().as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn table_shows_the_keys_the_selectors_used() {
        let text = with(|s| render(s, SelectionFormat::Table, None));
        assert_eq!(
            text.ok().as_deref(),
            Some("NAME   region   claim:platform   ONLINE\na      eu       AWS              true\nb      us       AWS              false\n")
        );
    }

    #[test]
    fn json_lists_clusters_with_labels_and_claims() {
        let text = with(|s| render(s, SelectionFormat::Json, None)).unwrap_or_default();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(value["labelSelector"], "region");
        assert_eq!(value["clusters"][1]["name"], "b");
        assert_eq!(value["clusters"][1]["online"], false);
        assert_eq!(value["clusters"][0]["claims"]["platform"], "AWS");
    }
}
