//! `celSelector` (upstream `helpers/cel.go` with sdk-go's ManagedCluster library): CEL
//! expressions over a `managedCluster` variable shaped like the ManagedCluster object, and
//! `managedCluster.scores("<AddOnPlacementScore name>")` returning `[{name, value}]`.
//!
//! Evaluated with the `cel` crate, which parses but does not type-check. cel-go rejects an
//! undeclared identifier, an undeclared function and an operator no overload takes at compile
//! time (Misconfigured); fleetplan does the same by walking the parsed expression for free
//! identifiers, then checking it against OCM's environment (`cel_check`).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use cel::common::ast::{EntryExpr, Expr};
use cel::extractors::This;
use cel::objects::{KeyRef, Map};
use cel::{
    Context, Env, ExecutionError, IdedExpr, ParseError, ParseErrors, Program, ResolveResult, Value,
};

use super::cel_check;
use super::cel_limits::{self, SourceLimit, CLUSTER_BUDGET, PER_CALL_LIMIT};
use crate::model::{echo, shorten_quoted, Cluster, MAX_LINE_CHARS};
use crate::ocm::model::scores::AddOnPlacementScore;

pub(super) const VARIABLE: &str = "managedCluster";

/// Identifiers the environment declares: the cluster variable and CEL's type names.
const DECLARED: [&str; 14] = [
    VARIABLE,
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "list",
    "map",
    "null_type",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// Why a `celSelector` does not compile, as upstream's Misconfigured message says it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CompileError {
    #[error("compilation failed: {0}")]
    Limit(#[from] SourceLimit),
    /// cel-go's rendering of the parse errors (see `parse_errors`).
    #[error("compilation failed: {0}")]
    Parse(String),
    #[error(
        "compilation failed: undeclared reference to '{}' in {:?}; only '{}' is declared",
        echo(name),
        echo(expression),
        VARIABLE
    )]
    Undeclared { name: String, expression: String },
    /// cel-go's checker errors, rendered as its parse errors are.
    #[error("compilation failed: {0}")]
    Check(String),
}

/// The compiled expressions of one predicate (ANDed), each instrumented to count its cost
/// (see `cel_limits`).
pub(crate) struct CelSelector {
    programs: Vec<IdedExpr>,
    /// Why evaluation stopped: the first cluster on which an expression ran over its cost
    /// limit. Every later evaluation is skipped.
    exceeded: OnceLock<String>,
}

/// cel-go's `errorReportingLimit` default (parser.NewParser), which OCM keeps, and its
/// `common.Errors` `maxErrorsToReport`: both are 100.
const ERROR_LIMIT: usize = 100;

/// The cel crate's prefix of an error its lexer or grammar reports, as cel-go's listener does.
const SYNTAX_ERROR: &str = "Syntax error: ";

/// cel-go's parse error text (`common.Errors.ToDisplayString` at v0.29.2, OCM's version): each
/// error as `ERROR: <input>:LINE:COLUMN: MESSAGE`, then the source line and a caret under the
/// column, sorted by line and column. Rendered here rather than by the cel crate, whose
/// rendering panics for a column past 65,535 (a formatting width) and repeats the line
/// whatever its size: a line longer than a message may quote is left out.
///
/// cel-go keeps the first [`ERROR_LIMIT`] errors and counts the rest (`N more errors were
/// truncated`). Its parser stops at the 101st syntax error, which it reports as one more
/// error (`More than 100 syntax errors`, so never listed) before the tree is visited; the cel
/// crate reports one syntax error per bad token (5,000 stray characters made 350 KB of
/// message) and goes on to its other checks.
fn parse_errors(errors: &ParseErrors) -> String {
    let is_syntax = |error: &&ParseError| error.msg.starts_with(SYNTAX_ERROR);
    let (mut listed, counted): (Vec<&ParseError>, usize) =
        if errors.errors.iter().filter(is_syntax).count() > ERROR_LIMIT {
            let listed = errors.errors.iter().filter(is_syntax).take(ERROR_LIMIT);
            (listed.collect(), ERROR_LIMIT + 1)
        } else {
            let listed = errors.errors.iter().take(ERROR_LIMIT);
            (listed.collect(), errors.errors.len())
        };
    listed.sort_by_key(|error| error.pos);
    let mut rendered: Vec<String> = listed
        .into_iter()
        .map(|error| {
            let (line, column) = error.pos;
            let snippet = error
                .source_info
                .as_ref()
                .and_then(|info| info.snippet(line - 1));
            located(line, column, &error.msg, snippet)
        })
        .collect();
    if counted > ERROR_LIMIT {
        rendered.push(format!(
            "{} more errors were truncated",
            counted - ERROR_LIMIT
        ));
    }
    rendered.join("\n")
}

/// One error as cel-go displays it (`common.Error.ToDisplayString`): `ERROR: <input>:LINE:COLUMN:
/// MESSAGE` (the column from 1), then ` | ` and the source line (tabs as spaces), and ` | ` with
/// a dot per character before the column and a caret under it (full-width for a multi-byte
/// character), unless the line is too long to quote.
fn located(line: isize, column: isize, message: &str, snippet: Option<&str>) -> String {
    let mut text = format!(
        "ERROR: <input>:{line}:{column}: {}",
        shorten_quoted(message)
    );
    if let Some(snippet) = snippet.filter(|snippet| snippet.chars().count() <= MAX_LINE_CHARS) {
        let snippet = snippet.replace('\t', " ");
        let before = usize::try_from(column).unwrap_or(0).saturating_sub(1);
        let mut characters = snippet.chars();
        let dots: String = characters
            .by_ref()
            .take(before)
            .map(|c| if c.len_utf8() > 1 { '\u{ff0e}' } else { '.' })
            .collect();
        let caret = match characters.next() {
            Some(c) if c.len_utf8() > 1 => '\u{ff3e}',
            _ => '^',
        };
        text.push_str(&format!("\n | {snippet}\n | {dots}{caret}"));
    }
    text
}

/// cel-go's checker errors for `program` (see `cel_check`), sorted by where they are and
/// rendered as parse errors are; `None` when it checks.
fn check_errors(program: &Program, expression: &str) -> Option<String> {
    let mut errors = cel_check::check(program.expression(), program.source_info());
    if errors.is_empty() {
        return None;
    }
    errors.sort_by_key(|error| error.offset);
    let rendered: Vec<String> = errors
        .iter()
        .take(ERROR_LIMIT)
        .map(|error| {
            let before: String = expression.chars().take(error.offset).collect();
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            let snippet = expression.lines().nth(line - 1);
            located(
                isize::try_from(line).unwrap_or(isize::MAX),
                isize::try_from(column).unwrap_or(isize::MAX),
                &error.message,
                snippet,
            )
        })
        .collect();
    Some(rendered.join("\n"))
}

/// OCM's parser: cel-go's, with what `cel.OptionalTypes()` (sdk-go's `BaseEnvOpts`) enables:
/// the optional syntax (`a.?b`, `m[?k]`, `[?x]`, `{?k: v}`) and the `optMap` and `optFlatMap`
/// macros.
fn environment() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| Env::stdlib().with_optional_support(true))
}

impl CelSelector {
    /// Upstream's Misconfigured text for an expression that does not parse or is over
    /// cel-go's parser limits.
    pub(crate) fn compile(expressions: &[String]) -> Result<CelSelector, CompileError> {
        let programs = expressions
            .iter()
            .map(|expression| {
                cel_limits::check_source(expression)?;
                let program = environment()
                    .compile(expression)
                    .map_err(|errors| CompileError::Parse(parse_errors(&errors)))?;
                if let Some(name) = undeclared(program.expression(), &mut Vec::new()) {
                    return Err(CompileError::Undeclared {
                        name: name.to_string(),
                        expression: expression.clone(),
                    });
                }
                if let Some(errors) = check_errors(&program, expression) {
                    return Err(CompileError::Check(errors));
                }
                Ok(cel_limits::instrument(program.expression()))
            })
            .collect::<Result<_, _>>()?;
        Ok(CelSelector {
            programs,
            exceeded: OnceLock::new(),
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }

    /// Every expression evaluates to `true`; errors and non-booleans do not match. An
    /// expression over its cost limit does not match either, and is recorded: see
    /// [`CelSelector::exceeded`].
    pub(crate) fn matches(&self, env: &CelEnv, cluster: &Cluster) -> bool {
        if self.exceeded.get().is_some() {
            return false;
        }
        let mut scope = env.context.new_inner_scope();
        scope.add_variable_from_value(VARIABLE, managed_cluster(cluster));
        let mut budget = CLUSTER_BUDGET;
        for (position, program) in self.programs.iter().enumerate() {
            let limit = PER_CALL_LIMIT.min(budget);
            match cel_limits::metered(limit, || Value::resolve(program, &scope)) {
                Some((Ok(Value::Bool(true)), spent)) => budget -= spent,
                Some(_) => return false,
                None => {
                    let _ = self.exceeded.set(format!(
                        "requiredClusterSelector.celSelector.celExpressions[{position}]: evaluation on cluster {} exceeded the cost limit of {limit} ({}; operation cancelled: actual cost limit exceeded)",
                        cluster.name,
                        if limit == PER_CALL_LIMIT { "per expression" } else { "left of the cluster's budget" }
                    ));
                    return false;
                }
            }
        }
        true
    }

    /// The cost limit an expression ran over, on the first cluster it did.
    pub(crate) fn exceeded(&self) -> Option<&str> {
        self.exceeded.get().map(String::as_str)
    }
}

/// The first identifier that is neither declared nor bound by an enclosing comprehension
/// (`all`, `exists`, `filter`, `map` variables). Names starting with `@` are the parser's own.
fn undeclared<'e>(expression: &'e IdedExpr, bound: &mut Vec<&'e str>) -> Option<&'e str> {
    match &expression.expr {
        Expr::Unspecified | Expr::Literal(_) => None,
        Expr::Ident(name) => (!name.starts_with('@')
            && !DECLARED.contains(&name.as_str())
            && !bound.contains(&name.as_str()))
        .then_some(name.as_str()),
        Expr::Select(select) => undeclared(&select.operand, bound),
        Expr::Call(call) => call
            .target
            .iter()
            .map(|target| &**target)
            // The namespace of a qualified function (`optional.of`) is no variable.
            .filter(|target| !cel_check::is_qualified(target, &call.func_name))
            .chain(&call.args)
            .find_map(|argument| undeclared(argument, bound)),
        Expr::List(list) => list
            .elements
            .iter()
            .find_map(|element| undeclared(element, bound)),
        Expr::Map(map) => map
            .entries
            .iter()
            .find_map(|entry| entry_undeclared(&entry.expr, bound)),
        Expr::Struct(object) => object
            .entries
            .iter()
            .find_map(|entry| entry_undeclared(&entry.expr, bound)),
        Expr::Comprehension(comprehension) => {
            if let Some(name) = undeclared(&comprehension.iter_range, bound)
                .or_else(|| undeclared(&comprehension.accu_init, bound))
            {
                return Some(name);
            }
            let depth = bound.len();
            bound.push(&comprehension.iter_var);
            bound.extend(comprehension.iter_var2.as_deref());
            bound.push(&comprehension.accu_var);
            let found = [
                &comprehension.loop_cond,
                &comprehension.loop_step,
                &comprehension.result,
            ]
            .into_iter()
            .find_map(|part| undeclared(part, bound));
            bound.truncate(depth);
            found
        }
    }
}

fn entry_undeclared<'e>(entry: &'e EntryExpr, bound: &mut Vec<&'e str>) -> Option<&'e str> {
    match entry {
        EntryExpr::MapEntry(entry) => {
            undeclared(&entry.key, bound).or_else(|| undeclared(&entry.value, bound))
        }
        EntryExpr::StructField(field) => undeclared(&field.value, bound),
    }
}

/// AddOnPlacementScores by (cluster namespace, name) as CEL values.
type ScoreTable = HashMap<(String, String), Value>;

/// The evaluation environment shared by every cluster of one placement.
pub(crate) struct CelEnv {
    context: Context<'static, 'static>,
}

impl CelEnv {
    pub(crate) fn new(scores: &[AddOnPlacementScore]) -> CelEnv {
        let table: ScoreTable = scores
            .iter()
            .map(|score| {
                let entries: Vec<Value> = score
                    .scores
                    .iter()
                    .map(|(name, value)| {
                        Value::from(HashMap::from([
                            ("name".to_string(), Value::from(name.as_str())),
                            ("value".to_string(), Value::Int(*value)),
                        ]))
                    })
                    .collect();
                (
                    (score.namespace.clone(), score.name.clone()),
                    Value::List(Arc::new(entries)),
                )
            })
            .collect();
        let table = Arc::new(table);
        let mut context = Context::default();
        cel_limits::add_functions(&mut context);
        // `scores` is not a standard function, so adding it cannot conflict.
        let _ = context.add_function(
            "scores",
            move |This(cluster): This<Value>, resource: Arc<String>| -> ResolveResult {
                let name = cluster_name(&cluster).unwrap_or_default();
                table
                    .get(&(name.clone(), resource.to_string()))
                    .cloned()
                    .ok_or_else(|| ExecutionError::FunctionError {
                        function: "scores".to_string(),
                        message: format!("no AddOnPlacementScore {resource} in namespace {name}"),
                    })
            },
        );
        add_namespaced_functions(&mut context);
        CelEnv { context }
    }
}

/// The namespaced functions of OCM's environment the cel crate does not define (its standard
/// library has `optional.*`): ext.Strings' `strings.quote` and the Kubernetes IP library's
/// `ip.isCanonical`. Neither name is a standard function, so adding them cannot conflict.
fn add_namespaced_functions(context: &mut Context<'static, 'static>) {
    let _ = context.add_function("strings.quote", |text: Arc<String>| quote(&text));
    let _ = context.add_function("ip.isCanonical", |text: Arc<String>| -> ResolveResult {
        is_canonical_ip(&text).map(Value::Bool)
    });
}

/// cel-go `ext/strings.go` `quote`: double quotes around the text, with `\a \b \f \n \r \t
/// \v`, backslash and double quote escaped.
fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '\u{7}' => quoted.push_str("\\a"),
            '\u{8}' => quoted.push_str("\\b"),
            '\u{c}' => quoted.push_str("\\f"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            '\u{b}' => quoted.push_str("\\v"),
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// k8s.io/apiserver `library/ip.go` `ipIsCanonical`: whether `text` is an IP address written
/// the one way Go's `netip.Addr.String` writes it (RFC 5952 for IPv6, as Rust's `Display`);
/// an address with a zone, or an IPv4-mapped IPv6 address, is an error (`parseIPAddr`).
fn is_canonical_ip(text: &str) -> Result<bool, ExecutionError> {
    let refused = |message: String| ExecutionError::function_error("ip.isCanonical", message);
    let address: std::net::IpAddr = text.parse().map_err(|_| {
        refused(format!(
            "IP Address {:?} parse error during conversion from string",
            echo(text)
        ))
    })?;
    if let std::net::IpAddr::V6(v6) = address {
        if v6.to_ipv4_mapped().is_some() {
            return Err(refused(format!(
                "IPv4-mapped IPv6 address {:?} is not allowed",
                echo(text)
            )));
        }
    }
    Ok(address.to_string() == text)
}

fn cluster_name(cluster: &Value) -> Option<String> {
    let Value::Map(cluster) = cluster else {
        return None;
    };
    let Some(Value::Map(metadata)) = cluster.get(&KeyRef::String("metadata")) else {
        return None;
    };
    match metadata.get(&KeyRef::String("name")) {
        Some(Value::String(name)) => Some(name.to_string()),
        _ => None,
    }
}

fn string_map(values: impl Iterator<Item = (String, String)>) -> Value {
    Value::from(
        values
            .map(|(key, value)| (key, Value::from(value)))
            .collect::<HashMap<String, Value>>(),
    )
}

/// The parts of the ManagedCluster object fleetplan knows.
fn managed_cluster(cluster: &Cluster) -> Value {
    let claims: Vec<Value> = cluster
        .claims
        .iter()
        .map(|(name, value)| {
            string_map(
                [
                    ("name".to_string(), name.to_string()),
                    ("value".to_string(), value.to_string()),
                ]
                .into_iter(),
            )
        })
        .collect();
    let conditions: Vec<Value> = cluster
        .conditions
        .iter()
        .map(|(kind, status)| {
            string_map(
                [
                    ("type".to_string(), kind.clone()),
                    ("status".to_string(), status.clone()),
                ]
                .into_iter(),
            )
        })
        .collect();
    let quantities = |values: &crate::model::VecMap<String, crate::model::Quantity>| {
        string_map(
            values
                .iter()
                .map(|(name, quantity)| (name.clone(), quantity.text.clone())),
        )
    };
    let metadata = HashMap::from([
        ("name".to_string(), Value::from(cluster.name.as_str())),
        (
            "labels".to_string(),
            string_map(
                cluster
                    .labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string())),
            ),
        ),
    ]);
    let status = HashMap::from([
        ("clusterClaims".to_string(), Value::List(Arc::new(claims))),
        ("conditions".to_string(), Value::List(Arc::new(conditions))),
        ("allocatable".to_string(), quantities(&cluster.allocatable)),
        (
            "capacity".to_string(),
            quantities(&cluster.resource_capacity),
        ),
    ]);
    Value::Map(Map::from(HashMap::from([
        ("metadata".to_string(), Value::from(metadata)),
        ("status".to_string(), Value::from(status)),
    ])))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::testing::cluster;

    use super::*;

    /// cel-go's snippet: ` | ` before each line, tabs as spaces, a full-width dot for each
    /// multi-byte character before the column and a full-width caret under one.
    #[test]
    fn errors_are_located_as_cel_go_displays_them() {
        assert_eq!(
            located(1, 5, "m", Some("'a'\t* 3")),
            "ERROR: <input>:1:5: m\n | 'a' * 3\n | ....^"
        );
        assert_eq!(
            located(1, 3, "m", Some("'é' + 1")),
            "ERROR: <input>:1:3: m\n | 'é' + 1\n | .\u{ff0e}^"
        );
        assert_eq!(
            located(1, 2, "m", Some("'é' + 1")),
            "ERROR: <input>:1:2: m\n | 'é' + 1\n | .\u{ff3e}"
        );
    }

    #[test]
    fn label_expression_matches() {
        let selector = CelSelector::compile(&[
            r#"managedCluster.metadata.labels["region"] == "us-east-1""#.into(),
        ])
        .unwrap();
        let env = CelEnv::new(&[]);
        assert!(selector.matches(
            &env,
            &cluster("a").labels(&[("region", "us-east-1")]).build()
        ));
        assert!(!selector.matches(
            &env,
            &cluster("b").labels(&[("region", "us-west-1")]).build()
        ));
    }

    #[test]
    fn missing_label_does_not_match() {
        let selector =
            CelSelector::compile(&[r#"managedCluster.metadata.labels["region"] == "x""#.into()])
                .unwrap();
        assert!(!selector.matches(&CelEnv::new(&[]), &cluster("a").build()));
    }

    #[test]
    fn scores_function_reads_addon_scores() {
        let score = AddOnPlacementScore {
            namespace: "a".into(),
            name: "addon".into(),
            scores: BTreeMap::from([("s".to_string(), 90)]),
            valid_until: None,
            source: Default::default(),
        };
        let selector = CelSelector::compile(&[
            "managedCluster.scores('addon').filter(s, s.name == 's').all(e, e.value > 80)".into(),
        ])
        .unwrap();
        let env = CelEnv::new(&[score]);
        assert!(selector.matches(&env, &cluster("a").build()));
        assert!(!selector.matches(&env, &cluster("b").build()));
    }

    #[test]
    fn undeclared_variable_is_a_compilation_failure() {
        let err = CelSelector::compile(&["cluster.metadata.name == 'a'".into()])
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.starts_with("compilation failed: undeclared reference to 'cluster'"),
            "{err}"
        );
    }

    #[test]
    fn comprehension_variables_and_type_names_are_declared() {
        let selector = CelSelector::compile(&[
            "managedCluster.status.clusterClaims.exists(c, c.name == 'id' && type(c.value) == string)"
                .into(),
        ]);
        assert!(selector.is_ok());
    }

    #[test]
    fn comprehension_variable_is_not_declared_outside_it() {
        let err = CelSelector::compile(&[
            "managedCluster.status.clusterClaims.exists(c, true) && c.name == 'id'".into(),
        ])
        .err()
        .unwrap();
        assert!(
            matches!(&err, CompileError::Undeclared { name, .. } if name == "c"),
            "{err}"
        );
    }

    #[test]
    fn syntax_error_is_a_compilation_failure() {
        let err = CelSelector::compile(&["a ==".into()]).err().unwrap();
        assert!(matches!(err, CompileError::Parse(_)), "{err}");
        assert!(
            err.to_string()
                .starts_with("compilation failed: ERROR: <input>:1:"),
            "{err}"
        );
    }
}
