//! Routing each document to the reader its API registers for its `apiVersion`/`kind`
//! (`load/kinds`), expanding `List`s.

use super::content::{Content, Shape};
use super::documents::Lines;
use super::fingerprint::Print;
use super::kinds::{route, Route};
use super::model_builder::{Decoded, ModelBuilder};
use super::object::{check_metadata, join, Object, TypeMeta};
use super::plain_scalars::{self, Misread};
use super::LoadError;
use crate::model::Source;
use crate::parallel;

/// Reads one document into the model. Empty documents are skipped; so are documents found
/// by walking (`walked`) that have neither `apiVersion` nor `kind`: a CI workflow, a JSON
/// template or a test mapping beside the manifests is not a Kubernetes object. One of the two
/// without the other is a broken manifest, and a file named explicitly is read strictly.
/// `item_lines` are a List document's items' lines where its parsing found them.
pub(super) fn load_document(
    content: Content<'_>,
    source: &Source,
    misread: &[Misread],
    item_lines: &[Option<usize>],
    walked: bool,
    builder: &mut ModelBuilder<'_>,
) {
    // A JSON object's fields are found once, for every question asked of it below.
    let fields = content.fields();
    let content = fields.as_ref().map_or(content, Content::Fields);
    if walked && !has_type_meta(content) {
        return builder.not_an_object(source.clone());
    }
    let namespace = builder.namespace().to_string();
    match prepare(content, source, misread, "", &namespace) {
        Step::List(list, items) => load_list(list, items, source, misread, item_lines, "", builder),
        step => apply(step, source, misread, "", builder),
    }
}

/// Whether a document has `apiVersion` or `kind` (an empty document counts as having them:
/// it is skipped as empty, not as foreign).
pub(super) fn has_type_meta(content: Content<'_>) -> bool {
    match content.shape() {
        Shape::Null => true,
        Shape::Mapping => content.get("apiVersion").is_some() || content.get("kind").is_some(),
        _ => false,
    }
}

/// What reading one value does to the model, decided from the value alone: everything but
/// adding the decoded object, which claims its identity. Preparing touches no builder, so a
/// List's items are prepared (and decoded by their kind's reader) on every core and applied
/// in order (see [`load_list`]).
enum Step<'c> {
    Nothing,
    Error(LoadError),
    Skip(String),
    List(Content<'c>, Content<'c>),
    /// Warnings about plain scalars, then what the reader decoded (with its content's
    /// fingerprint, which tells a repeated object from a conflicting one), unless the scalars
    /// were refused.
    Read {
        warnings: Vec<String>,
        refusals: Vec<LoadError>,
        decoded: Option<Box<Result<Fingerprinted<'c>, LoadError>>>,
    },
}

/// A decoded object and its content's fingerprint (`Print::None`: not an object of its own).
type Fingerprinted<'c> = (Decoded, Print<'c>);

/// Where a value being prepared sits, for its errors: its document, the scalars kubectl
/// misreads in it, and its path within the document (`items[3].` for a List's item).
#[derive(Clone, Copy)]
struct At<'a> {
    source: &'a Source,
    misread: &'a [Misread],
    prefix: &'a str,
}

impl At<'_> {
    /// An invalid field of the value, explained where a misread scalar caused it.
    fn invalid(self, path: &str, message: String) -> LoadError {
        let error = LoadError::Invalid {
            at: self.source.clone(),
            object: None,
            path: join(self.prefix, path),
            message,
        };
        plain_scalars::explained(error, self.prefix, self.misread)
    }
}

/// Prepares one value, in the loader's steps: its `apiVersion` and `kind`, a List's items,
/// the reader its API registers for them, the scalars kubectl misreads, the decoded object
/// and its fingerprint.
fn prepare<'c>(
    content: Content<'c>,
    source: &Source,
    misread: &[Misread],
    prefix: &str,
    namespace: &str,
) -> Step<'c> {
    let at = At {
        source,
        misread,
        prefix,
    };
    let type_meta = match type_meta(content, at) {
        Ok(Some(type_meta)) => type_meta,
        Ok(None) => return Step::Nothing,
        Err(error) => return Step::Error(error),
    };
    if type_meta.kind.ends_with("List") {
        if let Some(items) = content.get("items") {
            return Step::List(content, items);
        }
    }
    let read = match route(&type_meta, content) {
        Route::Read(read) => read,
        Route::UnsupportedVersion(group, versions) => {
            return Step::Error(unsupported_version(&type_meta, group, versions, at));
        }
        Route::Unknown => {
            if let Err(error) = check_metadata(content) {
                return Step::Error(at.invalid(&error.path, error.message));
            }
            return Step::Skip(format!("{}/{}", type_meta.api_version, type_meta.kind));
        }
    };
    // Built once: its metadata is decoded for the misread scalars' messages and the read.
    let misread_in = (!misread.is_empty()).then(|| type_meta.clone());
    let object = Object::new(
        type_meta,
        content,
        source.clone(),
        prefix.to_string(),
        namespace,
    );
    let (warnings, refusals) = match misread_in {
        Some(type_meta) => misread_scalars(&type_meta, &object, at),
        None => (Vec::new(), Vec::new()),
    };
    if !refusals.is_empty() {
        return Step::Read {
            warnings,
            refusals,
            decoded: None,
        };
    }
    Step::Read {
        warnings,
        refusals,
        decoded: Some(Box::new(object.and_then(read).map(|decoded| {
            let print = if decoded.identified() {
                Print::of(content)
            } else {
                Print::None
            };
            (decoded, print)
        }))),
    }
}

/// A value's `apiVersion` and `kind` (`None` for an empty document); anything but a mapping
/// is not a Kubernetes object.
fn type_meta(content: Content<'_>, at: At<'_>) -> Result<Option<TypeMeta>, LoadError> {
    match content.shape() {
        Shape::Null => return Ok(None),
        Shape::Mapping => {}
        other => {
            let message = format!(
                "expected a Kubernetes object (a mapping with apiVersion and kind), found {}",
                other.describe()
            );
            return Err(at.invalid("", message));
        }
    }
    let type_meta = match (
        content.plain_string("apiVersion"),
        content.plain_string("kind"),
    ) {
        (Some(api_version), Some(kind)) => TypeMeta {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
        },
        _ => content
            .decode_fields(&["apiVersion", "kind"])
            .map_err(|error| at.invalid(&error.path, error.message))?,
    };
    if let Some((field, message)) = type_meta.invalid() {
        return Err(at.invalid(field, message));
    }
    Ok(Some(type_meta))
}

/// A kind fleetplan reads, in an `apiVersion` it does not: the versions it reads.
fn unsupported_version(
    type_meta: &TypeMeta,
    group: &str,
    versions: &[&str],
    at: At<'_>,
) -> LoadError {
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
    at.invalid("apiVersion", message)
}

/// The scalars kubectl reads otherwise than fleetplan (YAML 1.1): warnings on fleetplan's
/// own kinds, else a refusal for each one the object's reader would take wrongly.
fn misread_scalars(
    type_meta: &TypeMeta,
    object: &Result<Object<'_>, LoadError>,
    at: At<'_>,
) -> (Vec<String>, Vec<LoadError>) {
    let (mut warnings, mut refusals) = (Vec::new(), Vec::new());
    let identity = object.as_ref().ok().map(|object| object.object.to_string());
    if plain_scalars::fleetplan_only(&type_meta.api_version) {
        for (field, message) in plain_scalars::warnings(at.misread) {
            let object = identity.as_deref().unwrap_or(&type_meta.kind);
            let field = join(at.prefix, &field);
            warnings.push(format!("{}: {object}: {field}: {message}", at.source));
        }
    } else {
        for found in at.misread.iter().filter(|found| found.refused()) {
            refusals.push(LoadError::Invalid {
                at: at.source.clone(),
                object: identity.clone(),
                path: join(at.prefix, &found.field()),
                message: found.refusal(),
            });
        }
    }
    (warnings, refusals)
}

fn apply(
    step: Step<'_>,
    source: &Source,
    misread: &[Misread],
    prefix: &str,
    builder: &mut ModelBuilder<'_>,
) {
    match step {
        Step::Nothing => {}
        Step::Error(error) => builder.error(error),
        Step::Skip(what) => builder.skip(source.clone(), what),
        // A List's item that is a List: its items point at the item.
        Step::List(list, items) => load_list(list, items, source, misread, &[], prefix, builder),
        Step::Read {
            warnings,
            refusals,
            decoded,
        } => {
            warnings
                .into_iter()
                .for_each(|warning| builder.warn(warning));
            builder.errors(refusals);
            match decoded.map(|boxed| *boxed) {
                Some(Ok((decoded, print))) => builder.add(decoded, print),
                Some(Err(error)) => {
                    builder.error(plain_scalars::explained(error, prefix, misread));
                }
                None => {}
            }
        }
    }
}

/// The `items` of `list`, each read as a document located at its own line (`item_lines` for
/// a tree, found in the text for JSON), else at the List's.
fn load_list(
    list: Content<'_>,
    items: Content<'_>,
    source: &Source,
    misread: &[Misread],
    item_lines: &[Option<usize>],
    prefix: &str,
    builder: &mut ModelBuilder<'_>,
) {
    match items.shape() {
        Shape::List => {
            // Each item is prepared (its fields found, its object decoded) on every core and
            // applied in order as soon as the items before it are: the model and its errors
            // are the one-thread ones, and a 100k-item List never holds every decoded
            // object at once.
            let items = list.list_at("items").unwrap_or_default();
            let lines = lines_of_items(list, &items, source, item_lines);
            let indexed: Vec<(usize, Content<'_>)> = items.into_iter().enumerate().collect();
            // A large item's fields may have been found already, when its document was
            // checked ([`Content::walked`]): it is not walked again.
            let walked = |index: usize| list.walked("items", index);
            let fields = map_items(&indexed, |&(index, item)| {
                walked(index).is_none().then(|| item.fields()).flatten()
            });
            let misread = plain_scalars::by_item(misread, indexed.len());
            let namespace = builder.namespace().to_string();
            builder.reserve_objects(indexed.len());
            for_each_item(
                &indexed,
                |&(index, item)| {
                    let prefix = item_prefix(prefix, index);
                    let item = walked(index)
                        .or(fields[index].as_ref())
                        .map_or(item, Content::Fields);
                    // Made here, on every core: each item's copy of the file's name.
                    let source = Source {
                        line: lines[index],
                        ..source.clone()
                    };
                    let step = prepare(item, &source, &misread[index], &prefix, &namespace);
                    (index, prefix, source, step)
                },
                |(index, prefix, source, step)| {
                    apply(step, &source, &misread[index], &prefix, builder);
                },
            );
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

/// The path prefix of item `index` of a List at `prefix` (`items[3].`): written into a buffer
/// sized once, its index written by itoa, as every item of a 100k-item List has one
/// (`format!` took ~900 instructions, `write!` of the index alone ~350).
fn item_prefix(prefix: &str, index: usize) -> String {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(index);
    let mut at = String::with_capacity(prefix.len() + "items[].".len() + digits.len());
    at.push_str(prefix);
    at.push_str("items[");
    at.push_str(digits);
    at.push_str("].");
    at
}

/// The line of each of a List's `items` (its source is the List's, at that line): the item's
/// own where it is known, else the List's. A JSON List's items are slices of its text, which
/// starts at the List's line: their lines are counted there, in one walk over the text.
fn lines_of_items(
    list: Content<'_>,
    items: &[Content<'_>],
    source: &Source,
    item_lines: &[Option<usize>],
) -> Vec<Option<usize>> {
    let Some((text, line)) = list.text().zip(source.line) else {
        return (0..items.len())
            .map(|index| item_lines.get(index).copied().flatten().or(source.line))
            .collect();
    };
    let mut lines = Lines::new(text);
    items
        .iter()
        .map(|item| {
            let within = item.text().and_then(|item| lines.of(item));
            within.map(|within| line + within - 1).or(source.line)
        })
        .collect()
}

/// Below this many items a List is prepared on one thread: spawning costs more than it saves.
const PARALLEL_ITEMS: usize = 256;

fn map_items<'a, T: Sync, R: Send>(items: &'a [T], f: impl Fn(&'a T) -> R + Sync) -> Vec<R> {
    if items.len() < PARALLEL_ITEMS {
        items.iter().map(f).collect()
    } else {
        parallel::map_in_order(items, f)
    }
}

/// [`map_items`], each result handed to `consume` in order as soon as the items before it
/// are done; the workers stay a bounded window ahead of `consume`.
fn for_each_item<'a, T: Sync, R: Send>(
    items: &'a [T],
    f: impl Fn(&'a T) -> R + Sync,
    mut consume: impl FnMut(R),
) {
    if items.len() < PARALLEL_ITEMS {
        items.iter().map(f).for_each(consume);
    } else {
        let Ok(()) = parallel::for_each_in_order(items, f, |result| {
            consume(result);
            Ok::<(), std::convert::Infallible>(())
        });
    }
}
