//! Prioritizers and their weights (upstream `scheduling/schedule.go` getWeights /
//! getPrioritizers). Each prioritizer scores the feasible clusters in [-100, 100]; the total
//! is Σ score × weight.

pub mod addon;
pub mod balance;
pub mod resource;
pub mod steady;

use crate::model::placement::{AddOnScore, PrioritizerPolicy, ScoreCoordinateType};

pub const MAX_SCORE: i64 = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prioritizer {
    Balance,
    Steady,
    /// The resource name in `status.allocatable` (`cpu`, `memory`).
    ResourceAllocatable(&'static str),
    AddOn(AddOnScore),
}

/// An enabled prioritizer (weight ≠ 0) with upstream's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighted {
    pub name: String,
    pub prioritizer: Prioritizer,
    pub weight: i32,
}

/// Identity of a configuration: upstream keys its weight map by the score coordinate.
#[derive(PartialEq, Eq)]
enum Coordinate {
    BuiltIn(String),
    AddOn(Option<AddOnScore>),
}

/// The enabled prioritizers in a stable order: the defaults (Additive mode) first, then
/// the configurations in the order written. Errors are upstream's Misconfigured messages.
pub fn weights(policy: &PrioritizerPolicy) -> Result<Vec<Weighted>, String> {
    let mut merged: Vec<(Coordinate, i32)> = match policy.mode.as_str() {
        "Exact" => Vec::new(),
        "Additive" | "" => vec![
            (Coordinate::BuiltIn(balance::NAME.to_string()), 1),
            (Coordinate::BuiltIn(steady::NAME.to_string()), 1),
        ],
        other => return Err(format!("incorrect prioritizer policy mode: {other}")),
    };
    for config in &policy.configurations {
        let Some(coordinate) = &config.score_coordinate else {
            return Err("scoreCoordinate field is required".to_string());
        };
        let key = match coordinate.kind {
            ScoreCoordinateType::BuiltIn => Coordinate::BuiltIn(coordinate.built_in.clone()),
            ScoreCoordinateType::AddOn => Coordinate::AddOn(coordinate.add_on.clone()),
        };
        match merged.iter_mut().find(|(seen, _)| *seen == key) {
            Some(entry) => entry.1 = config.weight,
            None => merged.push((key, config.weight)),
        }
    }
    merged
        .into_iter()
        .filter(|(_, weight)| *weight != 0)
        .map(|(coordinate, weight)| {
            let (name, prioritizer) = match coordinate {
                Coordinate::BuiltIn(name) => {
                    let prioritizer = match name.as_str() {
                        balance::NAME => Prioritizer::Balance,
                        steady::NAME => Prioritizer::Steady,
                        resource::CPU => Prioritizer::ResourceAllocatable("cpu"),
                        resource::MEMORY => Prioritizer::ResourceAllocatable("memory"),
                        _ => return Err(format!("incorrect builtin prioritizer: {name}")),
                    };
                    (name, prioritizer)
                }
                Coordinate::AddOn(Some(addon)) => (addon::name(&addon), Prioritizer::AddOn(addon)),
                Coordinate::AddOn(None) => return Err("addOn should not be empty".to_string()),
            };
            Ok(Weighted {
                name,
                prioritizer,
                weight,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::model::placement::{PrioritizerConfig, ScoreCoordinate};

    use super::*;

    fn builtin(name: &str, weight: i32) -> PrioritizerConfig {
        PrioritizerConfig {
            score_coordinate: Some(ScoreCoordinate {
                kind: ScoreCoordinateType::BuiltIn,
                built_in: name.into(),
                add_on: None,
            }),
            weight,
        }
    }

    fn policy(mode: &str, configurations: Vec<PrioritizerConfig>) -> PrioritizerPolicy {
        PrioritizerPolicy {
            mode: mode.into(),
            configurations,
        }
    }

    fn names(weighted: &[Weighted]) -> Vec<(String, i32)> {
        weighted
            .iter()
            .map(|w| (w.name.clone(), w.weight))
            .collect()
    }

    #[test]
    fn additive_keeps_defaults_and_overrides_weight() {
        let weighted = weights(&policy("Additive", vec![builtin("Balance", 3)])).unwrap();
        assert_eq!(
            names(&weighted),
            vec![("Balance".into(), 3), ("Steady".into(), 1)]
        );
    }

    #[test]
    fn exact_uses_only_configurations() {
        let weighted =
            weights(&policy("Exact", vec![builtin("ResourceAllocatableCPU", 2)])).unwrap();
        assert_eq!(names(&weighted), vec![("ResourceAllocatableCPU".into(), 2)]);
    }

    #[test]
    fn weight_zero_disables() {
        let weighted = weights(&policy("", vec![builtin("Steady", 0)])).unwrap();
        assert_eq!(names(&weighted), vec![("Balance".into(), 1)]);
    }

    #[test]
    fn spread_is_not_a_builtin_prioritizer() {
        let err = weights(&policy("Additive", vec![builtin("Spread", 1)])).unwrap_err();
        assert_eq!(err, "incorrect builtin prioritizer: Spread");
    }

    #[test]
    fn unknown_mode_is_misconfigured() {
        let err = weights(&policy("Sometimes", vec![])).unwrap_err();
        assert_eq!(err, "incorrect prioritizer policy mode: Sometimes");
    }
}
