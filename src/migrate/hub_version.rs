//! `--ocm-version` and `--karmada-version`: what the hub the objects are applied to serves,
//! so nothing is written that its API server would prune or its controllers ignore. The
//! table and its upstream sources are in docs/semantics.md ("Hub versions"). Each target
//! leaves out what its hub's release does not serve, in its folder
//! (ocm/migrate/hub_version.rs, karmada/migrate/federated.rs).
//!
//! A version is a release's minor (`v1.0`; `v1.0.3` and `1.0` name it too: patch releases
//! change no API) or the upstream commit the design follows (the default).

use std::fmt;

/// An OCM hub release, and what of the migration's output it serves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct OcmVersion {
    pub name: &'static str,
    /// `spec.predicates[].requiredClusterSelector.celSelector` (open-cluster-management-io/api
    /// 2458a27a "add celSelector in placement", first in v1.0.0).
    pub cel_selector: bool,
}

/// A Karmada control plane release, and what of the migration's output it serves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct KarmadaVersion {
    pub name: &'static str,
    /// The `namespace.karmada.io/skip-auto-propagation` label (karmada-io/karmada ecfec33ec,
    /// first in v1.4.0): without it, every Namespace goes to every member cluster.
    pub skip_auto_propagation: bool,
}

/// The commit docs/semantics.md follows (open-cluster-management-io/ocm, with the API types
/// of open-cluster-management-io/api 1845fd80).
pub(crate) const DEFAULT_OCM: &str = "00f84c32";
/// The commit docs/semantics.md follows (karmada-io/karmada, v1.19.0-rc.0-18).
pub(crate) const DEFAULT_KARMADA: &str = "f8fdd02df376";

const fn ocm(name: &'static str, cel_selector: bool) -> OcmVersion {
    OcmVersion { name, cel_selector }
}

const fn karmada(name: &'static str, skip_auto_propagation: bool) -> KarmadaVersion {
    KarmadaVersion {
        name,
        skip_auto_propagation,
    }
}

/// Every OCM release of open-cluster-management-io/ocm (the hub's single repository from
/// v0.11, the first to serve work replica sets), oldest first, then the default.
pub(crate) const OCM_VERSIONS: &[OcmVersion] = &[
    ocm("v0.11", false),
    ocm("v0.12", false),
    ocm("v0.13", false),
    ocm("v0.14", false),
    ocm("v0.15", false),
    ocm("v0.16", false),
    ocm("v1.0", true),
    ocm("v1.1", true),
    ocm("v1.2", true),
    ocm("v1.3", true),
    ocm(DEFAULT_OCM, true),
];

/// Every Karmada release from v1.0 (its override policies' `overrideRules`, karmada-io/karmada
/// 4b456ea89, which the migration writes), oldest first, then the default.
pub(crate) const KARMADA_VERSIONS: &[KarmadaVersion] = &[
    karmada("v1.0", false),
    karmada("v1.1", false),
    karmada("v1.2", false),
    karmada("v1.3", false),
    karmada("v1.4", true),
    karmada("v1.5", true),
    karmada("v1.6", true),
    karmada("v1.7", true),
    karmada("v1.8", true),
    karmada("v1.9", true),
    karmada("v1.10", true),
    karmada("v1.11", true),
    karmada("v1.12", true),
    karmada("v1.13", true),
    karmada("v1.14", true),
    karmada("v1.15", true),
    karmada("v1.16", true),
    karmada("v1.17", true),
    karmada("v1.18", true),
    karmada(DEFAULT_KARMADA, true),
];

/// The entry `given` names: its name, the name without `v`, a patch release of it, or (for
/// the default commit) any prefix of at least 7 hex digits of the full commit or the name.
fn find<'a, T>(table: &'a [T], name: impl Fn(&T) -> &'static str, given: &str) -> Option<&'a T> {
    let given = given.trim();
    let release = given.strip_prefix('v').unwrap_or(given);
    let minor = {
        let mut parts = release.splitn(3, '.');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(major), Some(minor), patch)
                if patch.is_none_or(|patch| {
                    patch.chars().all(|c| c.is_ascii_digit()) && !patch.is_empty()
                }) =>
            {
                Some(format!("v{major}.{minor}"))
            }
            _ => None,
        }
    };
    table.iter().find(|entry| {
        let name = name(entry);
        minor.as_deref() == Some(name)
            || (!name.starts_with('v')
                && given.len() >= 7
                && (name.starts_with(given) || given.starts_with(name))
                && given.chars().all(|c| c.is_ascii_hexdigit()))
    })
}

fn known<T>(table: &[T], name: impl Fn(&T) -> &'static str) -> String {
    table.iter().map(name).collect::<Vec<_>>().join(", ")
}

/// A version the table does not know.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {hub} version; known: {known} (the default)")]
pub(crate) struct UnknownVersion {
    hub: &'static str,
    known: String,
}

/// clap's parser for `--ocm-version`.
pub(crate) fn parse_ocm(given: &str) -> Result<&'static OcmVersion, UnknownVersion> {
    find(OCM_VERSIONS, |v| v.name, given).ok_or_else(|| UnknownVersion {
        hub: "OCM",
        known: known(OCM_VERSIONS, |v| v.name),
    })
}

/// clap's parser for `--karmada-version`.
pub(crate) fn parse_karmada(given: &str) -> Result<&'static KarmadaVersion, UnknownVersion> {
    find(KARMADA_VERSIONS, |v| v.name, given).ok_or_else(|| UnknownVersion {
        hub: "Karmada",
        known: known(KARMADA_VERSIONS, |v| v.name),
    })
}

/// The OCM version the design follows.
pub(crate) fn default_ocm() -> &'static OcmVersion {
    &OCM_VERSIONS[OCM_VERSIONS.len() - 1]
}

/// The Karmada version the design follows.
pub(crate) fn default_karmada() -> &'static KarmadaVersion {
    &KARMADA_VERSIONS[KARMADA_VERSIONS.len() - 1]
}

impl fmt::Display for OcmVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OCM {}", self.name)
    }
}

impl fmt::Display for KarmadaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Karmada {}", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_named_by_its_minor_with_or_without_v_and_patch() {
        for given in ["v1.0", "1.0", "v1.0.3", "1.0.0"] {
            assert_eq!(parse_ocm(given).map(|v| v.name), Ok("v1.0"), "{given}");
        }
        assert_eq!(parse_karmada("v1.10.2").map(|v| v.name), Ok("v1.10"));
    }

    #[test]
    fn the_default_commit_is_named_by_a_prefix_or_in_full() {
        assert_eq!(parse_ocm("00f84c32b03b").map(|v| v.name), Ok(DEFAULT_OCM));
        assert_eq!(
            parse_karmada("f8fdd02").map(|v| v.name),
            Ok(DEFAULT_KARMADA)
        );
        assert!(parse_ocm("00f84c").is_err());
    }

    #[test]
    fn an_unknown_version_lists_the_known_ones() {
        let error = parse_ocm("v0.9.0").map(|v| v.name).unwrap_err().to_string();
        assert!(
            error.starts_with("unknown OCM version; known: v0.11, v0.12,"),
            "{error}"
        );
        assert!(error.ends_with("v1.3, 00f84c32 (the default)"), "{error}");
        assert!(parse_karmada("v1.0.x").is_err());
    }
}
