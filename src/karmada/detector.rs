//! Which policy claims a resource template (`pkg/detector/policy.go propagateResource`,
//! `detector.go LookForMatched*Policy`, `compare.go`, `util.ResourceSelectorPriority`).

use std::cmp::Ordering;

use crate::karmada::model::{PolicyKind, PropagationPolicy, ResourceSelector, ResourceTemplate};
use crate::selector::Selector;

/// `util.ImplicitPriority`: how a policy's best selector matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImplicitPriority {
    MisMatch,
    MatchAll,
    MatchLabelSelector,
    MatchName,
}

impl ImplicitPriority {
    pub fn as_str(self) -> &'static str {
        match self {
            ImplicitPriority::MisMatch => "no selector matches",
            ImplicitPriority::MatchAll => "a selector matches every object of the kind",
            ImplicitPriority::MatchLabelSelector => "a selector's label selector matches",
            ImplicitPriority::MatchName => "a selector names it",
        }
    }
}

/// How one policy fared for the resource, for `explain`.
#[derive(Clone, Debug)]
pub struct Candidate<'a> {
    pub policy: &'a PropagationPolicy,
    pub implicit: ImplicitPriority,
    /// Why the policy was not even compared (another namespace, being deleted, a PP for a
    /// cluster-scoped object, or a PP matched so ClusterPropagationPolicies were not tried).
    pub skipped: Option<&'static str>,
}

/// The detector's decision.
#[derive(Clone, Debug)]
pub enum Claim<'a> {
    /// The policy applies and a binding is written (`how` says why this one).
    Claimed {
        policy: &'a PropagationPolicy,
        how: &'static str,
    },
    /// No binding: nothing matched, or the claimed policy is gone.
    Unclaimed { why: String },
    /// The resource stays as it is and nothing is (re)scheduled (a claimed policy being
    /// deleted or no longer selecting it).
    Blocked { why: String },
}

/// The API groups whose objects the detector never watches (`util/apigroup.go`
/// `NewSkippedResourceConfig`): Karmada's own and `events.k8s.io`.
const SKIPPED_GROUPS: [&str; 9] = [
    "cluster.karmada.io",
    "policy.karmada.io",
    "work.karmada.io",
    "config.karmada.io",
    "networking.karmada.io",
    "autoscaling.karmada.io",
    "remedy.karmada.io",
    "apps.karmada.io",
    "events.k8s.io",
];

/// A template with this label is another controller's (a MultiClusterService's Service):
/// `Reconcile` leaves it alone.
const CLAIMED_BY_LABEL: &str = "resourcetemplate.karmada.io/claimed-by";

/// Why upstream never propagates `resource`, whatever the policies say: the resource
/// detector's filters at their defaults (`pkg/detector/detector.go` `EventFilter` and
/// `Reconcile`, `pkg/util/names/names.go` `IsReservedNamespace`, the controller manager's
/// `--skipped-propagating-namespaces=kube-.*`, `pkg/util/apigroup.go`
/// `NewSkippedResourceConfig`).
pub(crate) fn ignored(resource: &ResourceTemplate) -> Option<String> {
    let object = &resource.object;
    let group = object.group();
    let version = object
        .api_version
        .rsplit_once('/')
        .map_or(object.api_version.as_str(), |(_, version)| version);
    if SKIPPED_GROUPS.contains(&group) {
        return Some(format!(
            "the resource detector does not watch the API group {group} (--skipped-propagating-apis defaults)"
        ));
    }
    if (group.is_empty() && version == "v1" && object.kind == "Event")
        || (group == "coordination.k8s.io" && version == "v1")
    {
        return Some(format!(
            "the resource detector does not watch {}/{} (--skipped-propagating-apis defaults)",
            object.api_version, object.kind
        ));
    }
    if let Some(namespace) = object.namespace.as_deref() {
        if namespace == "karmada-system"
            || namespace == "karmada-cluster"
            || namespace.starts_with("karmada-es-")
        {
            return Some(format!(
                "namespace {namespace} is reserved by Karmada: the resource detector ignores its objects"
            ));
        }
        if namespace.starts_with("kube-") {
            return Some(format!(
                "namespace {namespace} matches kube-.* (--skipped-propagating-namespaces default): the resource detector ignores its objects"
            ));
        }
    }
    match resource.labels.get(CLAIMED_BY_LABEL) {
        Some(owner) if !owner.is_empty() => Some(format!(
            "label {CLAIMED_BY_LABEL}={owner}: another controller owns the template, the resource detector leaves it alone"
        )),
        _ => None,
    }
}

/// `propagateResource`: an existing claim first, then the PropagationPolicies of the
/// resource's namespace, then the ClusterPropagationPolicies.
pub(crate) fn claim<'a>(
    resource: &ResourceTemplate,
    policies: &'a [PropagationPolicy],
) -> (Claim<'a>, Vec<Candidate<'a>>) {
    let candidates = candidates(resource, policies);
    if let Some((kind, namespace, name)) = &resource.claimed_by {
        return (
            claimed(resource, policies, *kind, namespace.as_deref(), name),
            candidates,
        );
    }
    for kind in [
        PolicyKind::PropagationPolicy,
        PolicyKind::ClusterPropagationPolicy,
    ] {
        let best = candidates
            .iter()
            .filter(|c| c.policy.kind == kind && c.skipped.is_none())
            .filter(|c| c.implicit > ImplicitPriority::MisMatch)
            .max_by(|a, b| compare(a, b))
            .map(|best| best.policy);
        if let Some(best) = best {
            let how = if kind == PolicyKind::PropagationPolicy {
                "the highest-priority matching PropagationPolicy of its namespace"
            } else {
                "no PropagationPolicy matches; the highest-priority matching ClusterPropagationPolicy"
            };
            let mut candidates = candidates;
            if kind == PolicyKind::PropagationPolicy {
                for candidate in &mut candidates {
                    if candidate.policy.kind == PolicyKind::ClusterPropagationPolicy
                        && candidate.skipped.is_none()
                    {
                        candidate.skipped = Some("a PropagationPolicy matched first");
                    }
                }
            }
            return (Claim::Claimed { policy: best, how }, candidates);
        }
    }
    (
        Claim::Unclaimed {
            why: "no PropagationPolicy or ClusterPropagationPolicy selects it".to_string(),
        },
        candidates,
    )
}

/// `getHighestPriority*PropagationPolicy`: explicit priority, then implicit, then the smaller
/// name. Greater = preferred.
fn compare(a: &Candidate, b: &Candidate) -> Ordering {
    a.policy
        .priority
        .cmp(&b.policy.priority)
        .then(a.implicit.cmp(&b.implicit))
        .then_with(|| b.policy.name.cmp(&a.policy.name))
}

fn candidates<'a>(
    resource: &ResourceTemplate,
    policies: &'a [PropagationPolicy],
) -> Vec<Candidate<'a>> {
    let namespace = resource.object.namespace.as_deref();
    policies
        .iter()
        .map(|policy| {
            let skipped = match policy.kind {
                PolicyKind::PropagationPolicy if namespace.is_none() => {
                    Some("a PropagationPolicy cannot select a cluster-scoped object")
                }
                PolicyKind::PropagationPolicy if policy.namespace.as_deref() != namespace => {
                    Some("a PropagationPolicy of another namespace")
                }
                _ if policy.deleting => Some("being deleted"),
                _ => None,
            };
            Candidate {
                policy,
                implicit: priority(resource, &policy.resource_selectors),
                skipped,
            }
        })
        .collect()
}

/// `ResourceMatchSelectorsPriority`: the best over the selectors.
pub(crate) fn priority(
    resource: &ResourceTemplate,
    selectors: &[ResourceSelector],
) -> ImplicitPriority {
    selectors
        .iter()
        .map(|selector| selector_priority(resource, selector))
        .max()
        .unwrap_or(ImplicitPriority::MisMatch)
}

/// `ResourceSelectorPriority`.
fn selector_priority(resource: &ResourceTemplate, selector: &ResourceSelector) -> ImplicitPriority {
    let object = &resource.object;
    if object.api_version != selector.api_version
        || object.kind != selector.kind
        || (!selector.namespace.is_empty()
            && object.namespace.as_deref().unwrap_or("") != selector.namespace)
    {
        return ImplicitPriority::MisMatch;
    }
    if !selector.name.is_empty() {
        return if selector.name == object.name {
            ImplicitPriority::MatchName
        } else {
            ImplicitPriority::MisMatch
        };
    }
    let Some(spec) = &selector.label_selector else {
        return ImplicitPriority::MatchAll;
    };
    match Selector::from_label_selector(Some(spec)) {
        Ok(selector) if selector.matches(&resource.labels) => ImplicitPriority::MatchLabelSelector,
        _ => ImplicitPriority::MisMatch,
    }
}

/// A resource that already carries a policy's claim keeps it (`getAndApply*Policy`).
fn claimed<'a>(
    resource: &ResourceTemplate,
    policies: &'a [PropagationPolicy],
    kind: PolicyKind,
    namespace: Option<&str>,
    name: &str,
) -> Claim<'a> {
    let reference = match namespace {
        Some(namespace) => format!("{}/{namespace}/{name}", kind.as_str()),
        None => format!("{}/{name}", kind.as_str()),
    };
    let Some(policy) = policies
        .iter()
        .find(|p| p.kind == kind && p.namespace.as_deref() == namespace && p.name == name)
    else {
        return Claim::Unclaimed {
            why: format!(
                "it is claimed by {reference}, which is not in the inputs: upstream cleans the claim up and writes no binding"
            ),
        };
    };
    if policy.deleting {
        return Claim::Blocked {
            why: format!("it is claimed by {reference}, which is being deleted"),
        };
    }
    if priority(resource, &policy.resource_selectors) == ImplicitPriority::MisMatch {
        return Claim::Blocked {
            why: format!(
                "it is claimed by {reference}, whose resource selectors no longer select it: upstream leaves it alone"
            ),
        };
    }
    Claim::Claimed {
        policy,
        how: "it already carries this policy's claim (no re-matching without preemption)",
    }
}
