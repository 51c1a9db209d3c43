//! `select_groups.go`: choosing spread groups (regions) by a depth-first enumeration.

use std::cmp::Ordering;

/// `GroupInfo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Group {
    pub name: String,
    /// Clusters in the group.
    pub value: i64,
    /// `calcGroupScore`.
    pub weight: i64,
}

/// A recorded `dfsPath`: its groups sorted by (weight desc, name asc).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Path {
    id: usize,
    groups: Vec<usize>,
    weight: i64,
    value: i64,
}

/// `selectGroups`: the chosen groups (indexes into `groups`), in the path's order, or none.
pub(super) fn select_groups(groups: &mut [Group], min: i64, max: i64, target: i64) -> Vec<usize> {
    if groups.is_empty() {
        return Vec::new();
    }
    let paths = feasible_paths(groups, min, max, target);
    prioritize(paths, groups)
        .map(|path| path.groups)
        .unwrap_or_default()
}

/// `findFeasiblePaths`, including its quirk: when there are exactly `min` groups, every level
/// stops after its first branch.
fn feasible_paths(groups: &mut [Group], min: i64, max: i64, target: i64) -> Vec<Path> {
    if groups.len() > 1 {
        groups.sort_by(|a, b| {
            a.value
                .cmp(&b.value)
                .then(b.weight.cmp(&a.weight))
                .then_with(|| a.name.cmp(&b.name))
        });
    }
    let mut search = Search {
        groups,
        min,
        max,
        target,
        root: Vec::new(),
        paths: Vec::new(),
        next_id: 0,
    };
    search.dfs(0, 0);
    search.paths
}

struct Search<'g> {
    groups: &'g [Group],
    min: i64,
    max: i64,
    target: i64,
    root: Vec<usize>,
    paths: Vec<Path>,
    next_id: usize,
}

impl Search<'_> {
    fn dfs(&mut self, mut sum: i64, begin: usize) {
        let length = self.root.len() as i64;
        if sum >= self.target && length >= self.min && length <= self.max {
            self.next_id += 1;
            let mut groups = self.root.clone();
            groups.sort_by(|&a, &b| by_weight_then_name(&self.groups[a], &self.groups[b]));
            self.paths.push(Path {
                id: self.next_id,
                weight: groups.iter().map(|&g| self.groups[g].weight).sum(),
                value: groups.iter().map(|&g| self.groups[g].value).sum(),
                groups,
            });
            return;
        }
        if length >= self.max {
            return;
        }
        for index in begin..self.groups.len() {
            sum += self.groups[index].value;
            self.root.push(index);
            self.dfs(sum, index + 1);
            if self.groups.len() as i64 == self.min {
                break;
            }
            sum -= self.groups[index].value;
            self.root.pop();
        }
    }
}

fn by_weight_then_name(a: &Group, b: &Group) -> Ordering {
    b.weight.cmp(&a.weight).then_with(|| a.name.cmp(&b.name))
}

/// `prioritizePaths`: the heaviest path (then most clusters, then earliest found); then any
/// later path that is a proper prefix of the choice replaces it.
fn prioritize(mut paths: Vec<Path>, groups: &[Group]) -> Option<Path> {
    if paths.len() <= 1 {
        return paths.pop();
    }
    paths.sort_by(|a, b| {
        b.weight
            .cmp(&a.weight)
            .then(b.value.cmp(&a.value))
            .then(a.id.cmp(&b.id))
    });
    let mut chosen = paths[0].clone();
    for path in &paths[1..] {
        let prefix = path.groups.len() < chosen.groups.len()
            && path
                .groups
                .iter()
                .zip(&chosen.groups)
                .all(|(&a, &b)| groups[a].name == groups[b].name);
        if prefix {
            chosen = path.clone();
        }
    }
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(name: &str, value: i64, weight: i64) -> Group {
        Group {
            name: name.to_string(),
            value,
            weight,
        }
    }

    fn names(groups: &[Group], chosen: &[usize]) -> Vec<String> {
        chosen.iter().map(|&g| groups[g].name.clone()).collect()
    }

    #[test]
    fn the_heaviest_feasible_combination_wins() {
        let mut groups = vec![
            group("r1", 1, 1000),
            group("r2", 2, 3000),
            group("r3", 1, 2000),
        ];
        let chosen = select_groups(&mut groups, 2, 2, 2);
        assert_eq!(names(&groups, &chosen), ["r2", "r3"]);
    }

    #[test]
    fn no_feasible_path_chooses_nothing() {
        let mut groups = vec![group("r1", 1, 1000)];
        assert!(select_groups(&mut groups, 1, 0, 1).is_empty());
    }
}
