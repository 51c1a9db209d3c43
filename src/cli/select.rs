//! `fleetplan select -f INVENTORY [SELECTOR] [--annotation JSON] [--label-selector SPEC]
//! [--claim-selector SPEC] [-o table|name|json|yaml]`

use std::collections::BTreeMap;

use clap::{Args, ValueEnum};
use serde::Deserialize;

use super::args::InputArgs;
use super::context::load_model;
use super::error::Error;
use super::io::{write, Io};
use crate::exit_code::ExitCode;
use crate::model::{Cluster, Inventory, LabelSelectorRequirementSpec, LabelSelectorSpec};
use crate::render::select::{self as render, Selection, SelectionFormat};
use crate::selector::Selector;
use crate::verdict;

#[derive(Debug, Args)]
pub(super) struct SelectArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    /// Label selector in Kubernetes syntax, e.g. 'env=prod,region in (eu-west,eu-central)'.
    #[arg(value_name = "SELECTOR")]
    selector: Option<String>,

    /// Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR.
    #[arg(short = 'l', long = "selector", value_name = "SELECTOR")]
    label: Option<String>,

    /// A federation.alpha.kubernetes.io/cluster-selector annotation value (JSON).
    #[arg(long, value_name = "JSON")]
    annotation: Option<String>,

    /// A metav1.LabelSelector ({matchLabels, matchExpressions}) as YAML or JSON.
    #[arg(long, value_name = "YAML|JSON")]
    label_selector: Option<String>,

    /// An OCM claim selector ({matchExpressions}) over cluster claims, as YAML or JSON.
    #[arg(long, value_name = "YAML|JSON")]
    claim_selector: Option<String>,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = Output::Table)]
    output: Output,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Output {
    Table,
    Name,
    Json,
    Yaml,
}

/// The validated request: every selector parsed, ready to run.
struct SelectConfig {
    labels: Selector,
    claims: Selector,
    format: SelectionFormat,
}

/// `--label-selector`, strict so a misspelt `matchLabel` is an error, not "every cluster".
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LabelSelectorFlag {
    #[serde(default)]
    match_labels: Option<BTreeMap<String, String>>,
    #[serde(default)]
    match_expressions: Option<Vec<LabelSelectorRequirementSpec>>,
}

/// `--claim-selector`: OCM's ClusterClaimSelector has only `matchExpressions`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClaimSelectorFlag {
    #[serde(default)]
    match_expressions: Vec<LabelSelectorRequirementSpec>,
}

impl SelectArgs {
    fn config(&self) -> Result<SelectConfig, Error> {
        let mut labels = Selector::everything();
        for text in [&self.selector, &self.label].into_iter().flatten() {
            labels = labels.and(Selector::parse(text)?);
        }
        if let Some(text) = &self.annotation {
            let annotation = Selector::from_annotation(text).map_err(invalid("--annotation"))?;
            labels = labels.and(annotation);
        }
        if let Some(text) = &self.label_selector {
            let flag: LabelSelectorFlag =
                crate::load::flag_yaml(text).map_err(invalid("--label-selector"))?;
            let spec = LabelSelectorSpec {
                match_labels: flag.match_labels,
                match_expressions: flag.match_expressions,
            };
            let selector =
                Selector::from_label_selector(Some(&spec)).map_err(invalid("--label-selector"))?;
            labels = labels.and(selector);
        }
        let claims = match &self.claim_selector {
            Some(text) => {
                let flag: ClaimSelectorFlag =
                    crate::load::flag_yaml(text).map_err(invalid("--claim-selector"))?;
                Selector::from_claim_selector(&flag.match_expressions)
                    .map_err(invalid("--claim-selector"))?
            }
            None => Selector::everything(),
        };
        Ok(SelectConfig {
            labels,
            claims,
            format: match self.output {
                Output::Table => SelectionFormat::Table,
                Output::Name => SelectionFormat::Name,
                Output::Json => SelectionFormat::Json,
                Output::Yaml => SelectionFormat::Yaml,
            },
        })
    }
}

/// How a flag's value that does not parse is reported.
fn invalid<E: std::fmt::Display>(flag: &'static str) -> impl FnOnce(E) -> Error {
    move |error| Error::Flag {
        flag,
        message: error.to_string(),
    }
}

/// The clusters whose labels match `labels` and whose claims match `claims`, by name.
fn select_clusters<'a>(
    inventory: &'a Inventory,
    labels: &Selector,
    claims: &Selector,
) -> Vec<&'a Cluster> {
    let mut clusters: Vec<&Cluster> = inventory
        .clusters
        .iter()
        .filter(|cluster| labels.matches(&cluster.labels) && claims.matches(&cluster.claims))
        .collect();
    clusters.sort_by(|a, b| a.name.cmp(&b.name));
    clusters
}

/// The distinct keys a selector tests, in its (key-sorted) order.
fn keys(selector: &Selector) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for requirement in selector.requirements() {
        if !keys.iter().any(|key| key == requirement.key()) {
            keys.push(requirement.key().to_string());
        }
    }
    keys
}

pub(super) fn run(args: SelectArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let config = args.config()?;
    let model = load_model(&args.inputs, io)?;
    // An empty selection from an empty inventory would say "nothing matches" of nothing.
    verdict::clusters(&model, false)?;
    let selection = Selection {
        label_selector: config.labels.to_string(),
        claim_selector: config.claims.to_string(),
        label_keys: keys(&config.labels),
        claim_keys: keys(&config.claims),
        clusters: select_clusters(&model.inventory, &config.labels, &config.claims),
    };
    let text = render::render(&selection, config.format, io.width)?;
    write(io.stdout, &text)?;
    Ok(ExitCode::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    fn names(clusters: &[&Cluster]) -> Vec<String> {
        clusters
            .iter()
            .map(|cluster| cluster.name.clone())
            .collect()
    }

    fn parse(text: &str) -> Selector {
        Selector::parse(text).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn labels_and_claims_must_both_match_and_results_are_sorted() {
        let inventory = Inventory {
            clusters: vec![
                cluster("c")
                    .label("env", "prod")
                    .claim("platform", "AWS")
                    .build(),
                cluster("a")
                    .label("env", "prod")
                    .claim("platform", "AWS")
                    .build(),
                cluster("b")
                    .label("env", "prod")
                    .claim("platform", "GCP")
                    .build(),
                cluster("d")
                    .label("env", "dev")
                    .claim("platform", "AWS")
                    .build(),
            ],
            ..Inventory::default()
        };
        let selected = select_clusters(&inventory, &parse("env=prod"), &parse("platform=AWS"));
        assert_eq!(names(&selected), ["a", "c"]);
    }

    #[test]
    fn keys_are_listed_once() {
        assert_eq!(keys(&parse("b,a=1,a!=2")), ["a", "b"]);
    }
}
