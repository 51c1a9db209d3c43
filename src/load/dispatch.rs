//! Routing each document to the reader its API registers for its `apiVersion`/`kind`
//! (`load/kinds`), expanding `List`s.

use super::content::{Content, Shape};
use super::kinds::{route, Route};
use super::model_builder::ModelBuilder;
use super::object::{join, Object, TypeMeta};
use super::plain_scalars::{self, Misread};
use super::LoadError;
use crate::model::Source;

/// Reads one document into the model. Empty documents are skipped; so are documents found
/// by walking (`walked`) that have neither `apiVersion` nor `kind`: a CI workflow, a JSON
/// template or a test mapping beside the manifests is not a Kubernetes object. One of the two
/// without the other is a broken manifest, and a file named explicitly is read strictly.
pub fn load_document(
    content: Content<'_>,
    source: &Source,
    misread: &[Misread],
    walked: bool,
    builder: &mut ModelBuilder,
) {
    // A JSON object's fields are found once, for every question asked of it below.
    let fields = content.fields();
    let content = fields.as_ref().map_or(content, Content::Fields);
    if walked && !has_type_meta(content) {
        return builder.not_an_object(source.clone());
    }
    load_value(content, source, misread, "", builder);
}

/// Whether a document has `apiVersion` or `kind` (an empty document counts as having them:
/// it is skipped as empty, not as foreign).
pub fn has_type_meta(content: Content<'_>) -> bool {
    match content.shape() {
        Shape::Null => true,
        Shape::Mapping => content.get("apiVersion").is_some() || content.get("kind").is_some(),
        _ => false,
    }
}

fn load_value(
    content: Content<'_>,
    source: &Source,
    misread: &[Misread],
    prefix: &str,
    builder: &mut ModelBuilder,
) {
    let invalid = |path: &str, message: String| {
        let error = LoadError::Invalid {
            at: source.clone(),
            object: None,
            path: join(prefix, path),
            message,
        };
        plain_scalars::explained(error, prefix, misread)
    };
    match content.shape() {
        Shape::Null => return,
        Shape::Mapping => {}
        other => {
            let message = format!(
                "expected a Kubernetes object (a mapping with apiVersion and kind), found {}",
                other.describe()
            );
            return builder.error(invalid("", message));
        }
    }
    let type_meta: TypeMeta = match content.decode_fields(&["apiVersion", "kind"]) {
        Ok(type_meta) => type_meta,
        Err(error) => return builder.error(invalid(&error.path, error.message)),
    };
    if let Some((field, message)) = type_meta.invalid() {
        return builder.error(invalid(field, message));
    }
    if type_meta.kind.ends_with("List") {
        if let Some(items) = content.get("items") {
            return load_list(content, items, source, misread, prefix, builder);
        }
    }
    let read = match route(&type_meta, content) {
        Route::Read(read) => read,
        Route::UnsupportedVersion(group, versions) => {
            let expected: Vec<String> = versions
                .iter()
                .map(|version| format!("{group}/{version}"))
                .collect();
            let message = format!(
                "expected {} for {}, found {}",
                expected.join(" or "),
                type_meta.kind,
                type_meta.api_version
            );
            return builder.error(invalid("apiVersion", message));
        }
        Route::Unknown => {
            let what = format!("{}/{}", type_meta.api_version, type_meta.kind);
            return builder.skip(source.clone(), what);
        }
    };
    let namespace = builder.namespace().to_string();
    // Built once: its metadata is decoded for the misread scalars' messages and the read.
    let misread_in = (!misread.is_empty()).then(|| type_meta.clone());
    let object = Object::new(
        type_meta,
        content,
        source.clone(),
        prefix.to_string(),
        &namespace,
    );
    if let Some(type_meta) = misread_in {
        let identity = object.as_ref().ok().map(|object| object.object.to_string());
        if plain_scalars::fleetplan_only(&type_meta.api_version) {
            for (field, message) in plain_scalars::warnings(misread) {
                let object = identity.as_deref().unwrap_or(&type_meta.kind);
                let field = join(prefix, &field);
                builder.warn(format!("{source}: {object}: {field}: {message}"));
            }
        } else if misread.iter().any(Misread::refused) {
            for found in misread.iter().filter(|found| found.refused()) {
                builder.error(LoadError::Invalid {
                    at: source.clone(),
                    object: identity.clone(),
                    path: join(prefix, &found.field()),
                    message: found.refusal(),
                });
            }
            return;
        }
    }
    let read = object.and_then(|object| read(&object, builder));
    if let Err(error) = read {
        builder.error(plain_scalars::explained(error, prefix, misread));
    }
}

/// The `items` of `list`, each read as a document.
fn load_list(
    list: Content<'_>,
    items: Content<'_>,
    source: &Source,
    misread: &[Misread],
    prefix: &str,
    builder: &mut ModelBuilder,
) {
    match items.shape() {
        Shape::List => {
            let items = list.list_at("items").unwrap_or_default();
            for (index, item) in items.into_iter().enumerate() {
                let prefix = format!("{prefix}items[{index}].");
                let misread = plain_scalars::within_item(misread, index);
                let fields = item.fields();
                let item = fields.as_ref().map_or(item, Content::Fields);
                load_value(item, source, &misread, &prefix, builder);
            }
        }
        Shape::Null => {}
        other => builder.error(LoadError::Invalid {
            at: source.clone(),
            object: None,
            path: join(prefix, "items"),
            message: format!("expected a list of objects, found {}", other.describe()),
        }),
    }
}
