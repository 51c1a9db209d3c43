//! Reading a cluster property for a property selector or sorter
//! (`clusteraffinity/types.go retrievePropertyValueFrom`, `retrieveResourceUsageFrom`):
//! `resources.kubernetes-fleet.io/<total|allocatable|available>-<resource>` reads
//! `status.resourceUsage`, any other name `status.properties[name].value`.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::model::member_cluster::MemberCluster;
use crate::model::quantity::QuantityError;
use crate::model::Quantity;

pub(crate) const RESOURCE_PROPERTY_PREFIX: &str = "resources.kubernetes-fleet.io/";

/// Why a property could not be read; any of these fails a scheduling cycle upstream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PropertyError {
    #[error("failed to retrieve resource property value for {name} from cluster {cluster}: invalid resource property name: {name}")]
    ResourceName { name: String, cluster: String },
    #[error("failed to retrieve resource property value for {name} from cluster {cluster}: invalid capacity type {capacity} in resource property name {name}")]
    CapacityType {
        capacity: String,
        name: String,
        cluster: String,
    },
    #[error(
        "value {value} of property {name} from cluster {cluster} is not a valid quantity: {error}"
    )]
    Value {
        value: String,
        name: String,
        cluster: String,
        error: QuantityError,
    },
}

/// The property's value on `cluster`; `None` when the cluster does not report it (no error:
/// such a cluster matches no selector on it and scores 0 for it).
pub(crate) fn property_value(
    cluster: &MemberCluster,
    name: &str,
) -> Result<Option<Quantity>, PropertyError> {
    let (text, name) = match name.strip_prefix(RESOURCE_PROPERTY_PREFIX) {
        Some(resource) => match resource_usage(cluster, resource)? {
            Some(text) => (text, resource),
            None => return Ok(None),
        },
        None => match cluster.properties.get(name) {
            Some(text) => (text.as_str(), name),
            None => return Ok(None),
        },
    };
    Quantity::parse(text)
        .map(Some)
        .map_err(|error| PropertyError::Value {
            value: text.to_string(),
            name: name.to_string(),
            cluster: cluster.name.clone(),
            error,
        })
}

/// A property's value on one cluster, with the two numbers the plugins compare and
/// interpolate by, worked out once.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reading {
    pub(crate) quantity: Quantity,
    /// `Quantity.Cmp` compares these.
    pub(crate) nanos: i128,
    /// `Quantity.AsApproximateFloat64`.
    pub(crate) approximate: f64,
}

impl Reading {
    pub(crate) fn new(quantity: Quantity) -> Reading {
        Reading {
            nanos: quantity.nanos(),
            approximate: approximate(&quantity),
            quantity,
        }
    }
}

/// A cluster's value of a property: absent, or why it cannot be read.
pub(crate) type PropertyReading<'a> = Result<Option<Cow<'a, Reading>>, PropertyError>;

/// [`property_value`] as a [`Reading`].
pub(crate) fn reading(cluster: &MemberCluster, name: &str) -> PropertyReading<'static> {
    Ok(property_value(cluster, name)?.map(|value| Cow::Owned(Reading::new(value))))
}

/// Every property name `cluster` reports a value under: its `status.properties` and
/// `resources.kubernetes-fleet.io/<capacity type>-<resource>` for each resource of its usage.
pub(crate) fn names(cluster: &MemberCluster) -> impl Iterator<Item = Cow<'_, str>> {
    let usage = &cluster.resource_usage;
    let resources = [
        ("total", &usage.capacity),
        ("allocatable", &usage.allocatable),
        ("available", &usage.available),
    ]
    .into_iter()
    .flat_map(|(capacity, list)| {
        list.keys().map(move |resource| {
            Cow::Owned(format!("{RESOURCE_PROPERTY_PREFIX}{capacity}-{resource}"))
        })
    });
    cluster
        .properties
        .keys()
        .map(|name| Cow::Borrowed(name.as_str()))
        .chain(resources)
}

/// `<capacity type>-<resource>`. At e160c1cd the name is split on every `-` and must have
/// exactly two parts, so `allocatable-ephemeral-storage` is an error (the webhook accepts it).
fn resource_usage<'c>(
    cluster: &'c MemberCluster,
    name: &str,
) -> Result<Option<&'c str>, PropertyError> {
    let mut parts = name.split('-');
    let (Some(capacity), Some(resource), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(resource_name_error(cluster, name));
    };
    if capacity.is_empty() || resource.is_empty() {
        return Err(resource_name_error(cluster, name));
    }
    let usage = &cluster.resource_usage;
    let list = match capacity {
        "total" => &usage.capacity,
        "allocatable" => &usage.allocatable,
        "available" => &usage.available,
        _ => {
            return Err(PropertyError::CapacityType {
                capacity: capacity.to_string(),
                name: name.to_string(),
                cluster: cluster.name.clone(),
            })
        }
    };
    Ok(list.get(resource).map(String::as_str))
}

fn resource_name_error(cluster: &MemberCluster, name: &str) -> PropertyError {
    PropertyError::ResourceName {
        name: name.to_string(),
        cluster: cluster.name.clone(),
    }
}

/// `Quantity.Cmp`: exact, so `1` equals `1000m`.
pub(crate) fn compare(a: &Quantity, b: &Quantity) -> Ordering {
    a.nanos().cmp(&b.nanos())
}

/// `Quantity.AsApproximateFloat64`. A quantity too large for int64 is kept as a decimal
/// rounded to nano scale, whose unscaled value overflows a float well before the amount does:
/// upstream then reads it as infinite (and refuses to interpolate with it).
pub(crate) fn approximate(quantity: &Quantity) -> f64 {
    if (quantity.value * 1e9).is_infinite() {
        return quantity.value.signum() * f64::INFINITY;
    }
    quantity.value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster() -> MemberCluster {
        let mut cluster = MemberCluster {
            name: "c".to_string(),
            ..MemberCluster::default()
        };
        cluster
            .resource_usage
            .allocatable
            .insert("cpu".to_string(), "8".to_string());
        cluster
            .properties
            .insert("p".to_string(), "1.30.2".to_string());
        cluster
    }

    #[test]
    fn a_resource_name_with_a_dash_is_an_error() {
        assert!(matches!(
            property_value(
                &cluster(),
                "resources.kubernetes-fleet.io/allocatable-ephemeral-storage"
            ),
            Err(PropertyError::ResourceName { .. })
        ));
    }

    #[test]
    fn an_unparsable_reported_value_is_an_error() {
        assert!(matches!(
            property_value(&cluster(), "p"),
            Err(PropertyError::Value { .. })
        ));
    }

    #[test]
    fn an_absent_resource_is_no_value() {
        assert_eq!(
            property_value(&cluster(), "resources.kubernetes-fleet.io/allocatable-gpu"),
            Ok(None)
        );
    }

    #[test]
    fn equal_amounts_compare_equal_whatever_their_suffix() {
        let (Ok(a), Ok(b)) = (Quantity::parse("1"), Quantity::parse("1000m")) else {
            panic!("quantities parse");
        };
        assert_eq!(compare(&a, &b), Ordering::Equal);
    }
}
