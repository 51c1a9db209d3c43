//! What cel-go's type checker refuses at compile time that the `cel` crate (a parser and an
//! interpreter, no checker) would only fail at evaluation — where it would match no cluster
//! instead of making the Placement Misconfigured: a function the environment does not declare
//! (`undeclared reference to 'f' (in container '')`) and an operator applied to operands no
//! overload takes (`found no matching overload for '_*_' applied to '(string, int)'`).
//!
//! The environment is OCM's (`pkg/placement/helpers/cel.go NewEnv` at ocm 00f84c32): cel-go's
//! standard library, sdk-go's `BaseEnvOpts` (`cel.OptionalTypes`, `ext.Strings`, and
//! k8s.io/apiserver's Lists, Regex, URLs, Quantity, IP, CIDR, Format and Semver libraries),
//! `ManagedClusterLib` (`scores`) and `JsonLib` (`parseJSON`). Types are only inferred where
//! an expression's type is certain (literals and what operators and conversions make of
//! them); anything read from `managedCluster` is `dyn`, which cel-go checks at run time, so
//! no error is claimed about it.

use cel::common::ast::operators::{
    ADD, CONDITIONAL, EQUALS, IN, INDEX, LOGICAL_AND, LOGICAL_OR, NOT_EQUALS,
};
use cel::common::ast::{ComprehensionExpr, EntryExpr, Expr, LiteralValue, SourceInfo};
use cel::IdedExpr;

use super::cel::VARIABLE;

/// Functions called without a receiver (`size(x)`, `quantity('1Gi')`).
const GLOBAL: &[&str] = &[
    // cel-go standard library
    "size",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "bool",
    "duration",
    "timestamp",
    "dyn",
    "type",
    "matches",
    "has",
    // apiserver libraries: URLs, Quantity, IP, CIDR, Semver
    "url",
    "isURL",
    "quantity",
    "isQuantity",
    "ip",
    "isIP",
    "cidr",
    "isCIDR",
    "semver",
    "isSemver",
];

/// Functions called on a receiver (`'a'.startsWith('b')`).
const MEMBER: &[&str] = &[
    // cel-go standard library
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    // macros, should the parser leave one unexpanded
    "all",
    "exists",
    "exists_one",
    "map",
    "filter",
    "optMap",
    "optFlatMap",
    // cel.OptionalTypes
    "hasValue",
    "value",
    "or",
    "orValue",
    // ext.Strings
    "charAt",
    "indexOf",
    "lastIndexOf",
    "lowerAscii",
    "upperAscii",
    "replace",
    "split",
    "substring",
    "trim",
    "join",
    "reverse",
    "format",
    // apiserver Lists, Regex, URLs
    "isSorted",
    "sum",
    "min",
    "max",
    "find",
    "findAll",
    "getScheme",
    "getHost",
    "getHostname",
    "getPort",
    "getEscapedPath",
    "getQuery",
    // apiserver Quantity and Semver
    "sign",
    "isInteger",
    "asInteger",
    "asApproximateFloat",
    "add",
    "sub",
    "isGreaterThan",
    "isLessThan",
    "compareTo",
    "major",
    "minor",
    "patch",
    // apiserver IP and CIDR
    "family",
    "isUnspecified",
    "isLoopback",
    "isLinkLocalMulticast",
    "isLinkLocalUnicast",
    "isGlobalUnicast",
    "containsIP",
    "containsCIDR",
    "masked",
    "prefixLength",
    // apiserver Format
    "validate",
    // OCM: ManagedClusterLib and JsonLib
    "scores",
    "parseJSON",
];

/// Functions with a qualified name (`optional.of(x)`), which the parser reads as a call on
/// the namespace.
const QUALIFIED: &[(&str, &str)] = &[
    ("optional", "of"),
    ("optional", "ofNonZeroValue"),
    ("optional", "none"),
    ("strings", "quote"),
    ("ip", "isCanonical"),
    ("format", "named"),
    ("format", "dns1123Label"),
    ("format", "dns1123Subdomain"),
    ("format", "dns1035Label"),
    ("format", "qualifiedName"),
    ("format", "dns1123LabelPrefix"),
    ("format", "dns1123SubdomainPrefix"),
    ("format", "dns1035LabelPrefix"),
    ("format", "labelValue"),
    ("format", "uri"),
    ("format", "uuid"),
    ("format", "byte"),
    ("format", "date"),
    ("format", "datetime"),
];

/// Whether `target.function(...)` is a qualified function: `target` is a namespace.
pub(super) fn is_qualified(target: &IdedExpr, function: &str) -> bool {
    matches!(&target.expr, Expr::Ident(namespace)
        if QUALIFIED.contains(&(namespace.as_str(), function)))
}

/// A type the checker is certain of; `Dyn` is anything else (timestamps, durations, optionals
/// and the results of most library functions are left `Dyn`: no error is claimed about them).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Type {
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Bool,
    Null,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    Dyn,
}

impl Type {
    /// cel-go's `FormatCELType`.
    fn name(&self) -> String {
        match self {
            Type::Int => "int".into(),
            Type::Uint => "uint".into(),
            Type::Double => "double".into(),
            Type::String => "string".into(),
            Type::Bytes => "bytes".into(),
            Type::Bool => "bool".into(),
            Type::Null => "null".into(),
            Type::List(element) => format!("list({})", element.name()),
            Type::Map(key, value) => format!("map({}, {})", key.name(), value.name()),
            Type::Dyn => "dyn".into(),
        }
    }

    fn numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Uint | Type::Double)
    }

    fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    /// The `managedCluster` variable: `cel.MapType(cel.StringType, cel.DynType)` in sdk-go's
    /// `ManagedClusterLib`.
    fn managed_cluster() -> Type {
        Type::Map(Box::new(Type::String), Box::new(Type::Dyn))
    }
}

/// Two values one type parameter of an overload takes (`_==_`'s `(A, A)`, a list literal's
/// elements): the type it is bound to, as cel-go's `isAssignable` and `mostGeneral` find it,
/// or `None` when no type takes both. Nothing converts implicitly: `1 == 1.0` is an error,
/// `dyn(1) == 1.0` is not.
fn unify(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Dyn, _) | (_, Type::Dyn) => Some(Type::Dyn),
        (Type::List(a), Type::List(b)) => unify(a, b).map(Type::list),
        (Type::Map(a_key, a_value), Type::Map(b_key, b_value)) => Some(Type::Map(
            Box::new(unify(a_key, b_key)?),
            Box::new(unify(a_value, b_value)?),
        )),
        _ => (a == b).then(|| a.clone()),
    }
}

/// A list or map literal's element type (`joinTypes` with cel-go's default of dynamic
/// aggregate literals): what every element unifies to, else `dyn`; `dyn` when empty (cel-go's
/// free type variable, which takes anything).
fn joined(types: impl IntoIterator<Item = Type>) -> Type {
    let mut joined: Option<Type> = None;
    for next in types {
        joined = Some(match joined {
            None => next,
            Some(previous) => unify(&previous, &next).unwrap_or(Type::Dyn),
        });
    }
    joined.unwrap_or(Type::Dyn)
}

/// One error, at the offset of the expression cel-go reports it at.
pub(super) struct CheckError {
    pub offset: usize,
    pub message: String,
}

/// Every error cel-go's checker would report for `expression`, in no particular order.
pub(super) fn check(expression: &IdedExpr, source_info: &SourceInfo) -> Vec<CheckError> {
    let mut checker = Checker {
        source_info,
        scope: Vec::new(),
        errors: Vec::new(),
    };
    checker.expression(expression);
    checker.errors
}

struct Checker<'s> {
    source_info: &'s SourceInfo,
    /// The variables comprehensions bind, innermost last.
    scope: Vec<(String, Type)>,
    errors: Vec<CheckError>,
}

impl Checker<'_> {
    fn error(&mut self, expression: &IdedExpr, message: String) {
        let offset = self
            .source_info
            .offset_for(expression.id)
            .map_or(0, |(start, _)| start as usize);
        self.errors.push(CheckError { offset, message });
    }

    fn expression(&mut self, expression: &IdedExpr) -> Type {
        match &expression.expr {
            Expr::Unspecified => Type::Dyn,
            Expr::Ident(name) => match self.scope.iter().rev().find(|(bound, _)| bound == name) {
                Some((_, bound)) => bound.clone(),
                None if name == VARIABLE => Type::managed_cluster(),
                None => Type::Dyn,
            },
            Expr::Literal(literal) => match literal {
                LiteralValue::Int(_) => Type::Int,
                LiteralValue::UInt(_) => Type::Uint,
                LiteralValue::Double(_) => Type::Double,
                LiteralValue::String(_) => Type::String,
                LiteralValue::Bytes(_) => Type::Bytes,
                LiteralValue::Boolean(_) => Type::Bool,
                LiteralValue::Null => Type::Null,
            },
            Expr::Select(select) => {
                // `checkSelectField`: a map yields its value type, `dyn` anything; other
                // types have no fields.
                let field = match self.expression(&select.operand) {
                    Type::Map(_, value) => *value,
                    Type::Dyn => Type::Dyn,
                    other => {
                        self.error(
                            expression,
                            format!("type '{}' does not support field selection", other.name()),
                        );
                        Type::Dyn
                    }
                };
                if select.test {
                    Type::Bool
                } else {
                    field
                }
            }
            Expr::Call(call) => {
                let qualified = call
                    .target
                    .as_deref()
                    .is_some_and(|target| is_qualified(target, &call.func_name));
                let target = match call.target.as_deref() {
                    Some(target) if !qualified => Some(self.expression(target)),
                    _ => None,
                };
                let arguments: Vec<Type> =
                    call.args.iter().map(|arg| self.expression(arg)).collect();
                if matches!(call.func_name.as_str(), LOGICAL_AND | LOGICAL_OR) {
                    return self.logical(&call.args, &arguments);
                }
                self.call(expression, &call.func_name, target, qualified, &arguments)
            }
            Expr::List(list) => {
                let elements: Vec<Type> = list
                    .elements
                    .iter()
                    .map(|element| self.expression(element))
                    .collect();
                Type::list(joined(elements))
            }
            Expr::Map(map) => {
                let mut keys = Vec::new();
                let mut values = Vec::new();
                for entry in &map.entries {
                    match &entry.expr {
                        EntryExpr::MapEntry(entry) => {
                            keys.push(self.expression(&entry.key));
                            values.push(self.expression(&entry.value));
                        }
                        EntryExpr::StructField(field) => {
                            self.expression(&field.value);
                        }
                    }
                }
                Type::Map(Box::new(joined(keys)), Box::new(joined(values)))
            }
            Expr::Struct(object) => {
                for entry in &object.entries {
                    match &entry.expr {
                        EntryExpr::MapEntry(entry) => {
                            self.expression(&entry.key);
                            self.expression(&entry.value);
                        }
                        EntryExpr::StructField(field) => {
                            self.expression(&field.value);
                        }
                    }
                }
                Type::Dyn
            }
            Expr::Comprehension(comprehension) => self.comprehension(comprehension),
        }
    }

    /// `checkComprehension`: the range is a list (its variable an element, or an index and an
    /// element), a map (a key, or a key and a value) or `dyn`.
    fn comprehension(&mut self, comprehension: &ComprehensionExpr) -> Type {
        let range = self.expression(&comprehension.iter_range);
        self.expression(&comprehension.accu_init);
        let (first, second) = match range {
            Type::List(element) => match comprehension.iter_var2 {
                Some(_) => (Type::Int, *element),
                None => (*element, Type::Dyn),
            },
            Type::Map(key, value) => (*key, *value),
            Type::Dyn => (Type::Dyn, Type::Dyn),
            other => {
                self.error(
                    &comprehension.iter_range,
                    format!(
                        "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                        other.name()
                    ),
                );
                (Type::Dyn, Type::Dyn)
            }
        };
        let depth = self.scope.len();
        self.scope.push((comprehension.accu_var.clone(), Type::Dyn));
        self.scope.push((comprehension.iter_var.clone(), first));
        if let Some(second_var) = &comprehension.iter_var2 {
            self.scope.push((second_var.clone(), second));
        }
        for part in [&comprehension.loop_cond, &comprehension.loop_step] {
            self.expression(part);
        }
        // The result sees the accumulator, not the loop's variables.
        self.scope.truncate(depth + 1);
        self.expression(&comprehension.result);
        self.scope.truncate(depth);
        Type::Dyn
    }

    /// `&&` and `||`: cel-go checks each operand against `bool` on its own
    /// (`expected type 'bool' but found 'string'`, at the operand), not as an overload.
    fn logical(&mut self, operands: &[IdedExpr], types: &[Type]) -> Type {
        for (operand, found) in operands.iter().zip(types) {
            if !matches!(found, Type::Bool | Type::Dyn) {
                self.error(
                    operand,
                    format!("expected type 'bool' but found '{}'", found.name()),
                );
            }
        }
        Type::Bool
    }

    /// The type of a call whose target and arguments have the types given, or an error.
    fn call(
        &mut self,
        expression: &IdedExpr,
        function: &str,
        target: Option<Type>,
        qualified: bool,
        arguments: &[Type],
    ) -> Type {
        if let Some(result) = operator(function, arguments) {
            return result.unwrap_or_else(|()| {
                let types: Vec<String> = arguments.iter().map(Type::name).collect();
                self.error(
                    expression,
                    format!(
                        "found no matching overload for '{function}' applied to '({})'",
                        types.join(", ")
                    ),
                );
                Type::Dyn
            });
        }
        // Operators (`_?._`, `_[?_]`, ...) are the parser's own.
        let declared = qualified
            || function.starts_with(['_', '@', '!', '-'])
            || match target {
                Some(_) => MEMBER.contains(&function),
                None => GLOBAL.contains(&function),
            };
        if !declared {
            self.error(
                expression,
                format!(
                    "undeclared reference to '{}' (in container '')",
                    crate::model::echo(function)
                ),
            );
            return Type::Dyn;
        }
        if let Some(applied) = string_overload_missing(function, target.as_ref(), arguments) {
            self.error(
                expression,
                format!("found no matching overload for '{function}' applied to '{applied}'"),
            );
            return Type::Dyn;
        }
        match function {
            "size" => Type::Int,
            "int" => Type::Int,
            "uint" => Type::Uint,
            "double" => Type::Double,
            "string" => Type::String,
            "bytes" => Type::Bytes,
            "bool" | "contains" | "startsWith" | "endsWith" | "matches" => Type::Bool,
            _ => Type::Dyn,
        }
    }
}

/// The standard string functions cel-go declares only on strings (`startsWith`, ...) and
/// `size` (strings, bytes, lists and maps), called with operands of certain types no overload
/// takes: cel-go's rendering of them (`int.(string)`, `(bool)`); `None` when an overload may
/// take them.
fn string_overload_missing(
    function: &str,
    target: Option<&Type>,
    arguments: &[Type],
) -> Option<String> {
    let string = |t: &Type| matches!(t, Type::String | Type::Dyn);
    let sized = |t: &Type| {
        matches!(
            t,
            Type::String | Type::Bytes | Type::List(_) | Type::Map(..) | Type::Dyn
        )
    };
    match (function, target, arguments) {
        ("contains" | "startsWith" | "endsWith" | "matches", Some(receiver), [argument])
            if !string(receiver) || !string(argument) =>
        {
            Some(format!("{}.({})", receiver.name(), argument.name()))
        }
        ("size", None, [argument]) if !sized(argument) => Some(format!("({})", argument.name())),
        ("size", Some(receiver), []) if !sized(receiver) => Some(format!("{}.()", receiver.name())),
        _ => None,
    }
}

/// An operator's result for operands of these types (cel-go's standard declarations at
/// v0.29.2, without `CrossTypeNumericComparisons`, which OCM's environment does not enable):
/// `Some(Err(()))` when no overload of it takes them, `None` when `function` is no operator
/// checked here. A `dyn` operand is taken by any overload, except where noted.
fn operator(function: &str, operands: &[Type]) -> Option<Result<Type, ()>> {
    let known = !operands.contains(&Type::Dyn);
    let result = match (function, operands) {
        ("!_", [operand]) => matches!(operand, Type::Bool | Type::Dyn).then_some(Type::Bool),
        ("-_", [operand]) => match operand {
            Type::Int | Type::Double | Type::Dyn => Some(operand.clone()),
            _ => None,
        },
        // `(A, A) -> bool`.
        (EQUALS | NOT_EQUALS, [left, right]) => unify(left, right).map(|_| Type::Bool),
        // `(bool, A, A) -> A`.
        (CONDITIONAL, [condition, then, otherwise]) => matches!(condition, Type::Bool | Type::Dyn)
            .then(|| unify(then, otherwise))
            .flatten(),
        // `(list(A), int) -> A`, `(map(A, B), A) -> B`.
        (INDEX, [container, index]) => match container {
            Type::List(element) => {
                matches!(index, Type::Int | Type::Dyn).then(|| (**element).clone())
            }
            Type::Map(key, value) => unify(key, index).map(|_| (**value).clone()),
            Type::Dyn => Some(Type::Dyn),
            _ => None,
        },
        // `(A, list(A))`, `(A, map(A, B))`.
        (IN, [element, container]) => match container {
            Type::List(member) => unify(element, member).map(|_| Type::Bool),
            Type::Map(key, _) => unify(element, key).map(|_| Type::Bool),
            Type::Dyn => Some(Type::Bool),
            _ => None,
        },
        ("_<_" | "_<=_" | "_>_" | "_>=_", [left, right]) => {
            let comparable = !known
                || (left == right
                    && matches!(
                        left,
                        Type::Int
                            | Type::Uint
                            | Type::Double
                            | Type::String
                            | Type::Bytes
                            | Type::Bool
                    ));
            comparable.then_some(Type::Bool)
        }
        (ADD, [Type::List(left), Type::List(right)]) => unify(left, right).map(Type::list),
        (ADD, [left, right]) if known => (left == right
            && matches!(
                left,
                Type::Int | Type::Uint | Type::Double | Type::String | Type::Bytes
            ))
        .then(|| left.clone()),
        ("_-_" | "_*_" | "_/_", [left, right]) if known => {
            (left == right && left.numeric()).then(|| left.clone())
        }
        ("_%_", [left, right]) if known => {
            (left == right && matches!(left, Type::Int | Type::Uint)).then(|| left.clone())
        }
        (ADD | "_-_" | "_*_" | "_/_" | "_%_", [_, _]) => Some(Type::Dyn),
        _ => return None,
    };
    Some(result.ok_or(()))
}

#[cfg(test)]
mod tests {
    use cel::Env;

    use super::*;

    fn messages(expression: &str) -> Vec<String> {
        let program = Env::stdlib()
            .compile(expression)
            .unwrap_or_else(|e| panic!("{e:?}"));
        check(program.expression(), program.source_info())
            .into_iter()
            .map(|error| error.message)
            .collect()
    }

    #[test]
    fn what_cel_go_accepts_checks() {
        for expression in [
            "dyn(1) == 1.0 || 'a' != 'b'",
            "[1] + [2] == [1, 2] && {'a': 1}['a'] == 1",
            "(true ? 1 : 2) == 1 && (false ? [1] : []) == [] && (1 > 0 ? 'x' : managedCluster.metadata.name) == 'x'",
            "'a' in ['a'] && has(managedCluster.metadata)",
            "timestamp('2026-01-01T00:00:00Z') - duration('1h') < timestamp('2026-01-02T00:00:00Z')",
            "managedCluster.metadata.labels.all(k, k.startsWith('a')) && [1, 2].exists(x, x > 1)",
            "1u + 2u == 3u && 1.5 * 2.0 == 3.0 && 7 % 2 == 1 && -1 < 0 && !false",
            "'a' + 'b' == 'ab' && b'a' + b'b' == b'ab' && 1 < 2 && 2.0 >= 1.0 && 2u > 1u",
            "size('ab') == 2 && size(b'a') == 1 && 'ab'.size() == 2 && size([1]) == 1 && size({1: 2}) == 1",
            "[1, 'a'][0] == 1 && {'a': [1]}['a'][0] == 1 && managedCluster['metadata'] == managedCluster.metadata",
            "1 in [1, 2] && 'a' in {'a': 1} && [1] + [] == [1] && {'a': 1}.a == 1",
            "optional.of(1).hasValue() && managedCluster.?metadata.hasValue() && [?optional.none()] == []",
            "'abc'.startsWith('a') && managedCluster.metadata.name.contains('x')",
            "quantity('1Gi').isGreaterThan(quantity('1Mi')) && 'a,b'.split(',').size() == 2",
            "managedCluster.scores('cpu').exists(s, s.value > 1) && '{}'.parseJSON() != null",
        ] {
            assert_eq!(messages(expression), Vec::<String>::new(), "{expression}");
        }
    }

    #[test]
    fn what_cel_go_refuses_is_reported() {
        for (expression, message) in [
            (
                "'a' * 3",
                "found no matching overload for '_*_' applied to '(string, int)'",
            ),
            (
                "1 + 1u",
                "found no matching overload for '_+_' applied to '(int, uint)'",
            ),
            (
                "1.5 % 2.0",
                "found no matching overload for '_%_' applied to '(double, double)'",
            ),
            ("'a' && true", "expected type 'bool' but found 'string'"),
            (
                "1 == 1.0",
                "found no matching overload for '_==_' applied to '(int, double)'",
            ),
            (
                "[1] != ['a']",
                "found no matching overload for '_!=_' applied to '(list(int), list(string))'",
            ),
            (
                "null == 1",
                "found no matching overload for '_==_' applied to '(null, int)'",
            ),
            (
                "true ? 1 : 'a'",
                "found no matching overload for '_?_:_' applied to '(bool, int, string)'",
            ),
            (
                "1 ? 2 : 3",
                "found no matching overload for '_?_:_' applied to '(int, int, int)'",
            ),
            (
                "'abc'[0]",
                "found no matching overload for '_[_]' applied to '(string, int)'",
            ),
            (
                "[1]['a']",
                "found no matching overload for '_[_]' applied to '(list(int), string)'",
            ),
            (
                "managedCluster[0]",
                "found no matching overload for '_[_]' applied to '(map(string, dyn), int)'",
            ),
            (
                "1 in ['a']",
                "found no matching overload for '@in' applied to '(int, list(string))'",
            ),
            (
                "1 < 2u",
                "found no matching overload for '_<_' applied to '(int, uint)'",
            ),
            (
                "2.0 >= 1",
                "found no matching overload for '_>=_' applied to '(double, int)'",
            ),
            (
                "[1].all(x, x == 'a')",
                "found no matching overload for '_==_' applied to '(int, string)'",
            ),
            (
                "1.all(x, true)",
                "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
            ),
            ("'a'.b", "type 'string' does not support field selection"),
            (
                "!1",
                "found no matching overload for '!_' applied to '(int)'",
            ),
            (
                "-1u",
                "found no matching overload for '-_' applied to '(uint)'",
            ),
            (
                "'a' < 1",
                "found no matching overload for '_<_' applied to '(string, int)'",
            ),
            (
                "size('a') + 'b'",
                "found no matching overload for '_+_' applied to '(int, string)'",
            ),
            (
                "nope(1)",
                "undeclared reference to 'nope' (in container '')",
            ),
            (
                "'a'.nope()",
                "undeclared reference to 'nope' (in container '')",
            ),
            (
                "1.startsWith('a')",
                "found no matching overload for 'startsWith' applied to 'int.(string)'",
            ),
            (
                "'a'.contains(1)",
                "found no matching overload for 'contains' applied to 'string.(int)'",
            ),
            (
                "size(true)",
                "found no matching overload for 'size' applied to '(bool)'",
            ),
            (
                "1.5.size() == 1",
                "found no matching overload for 'size' applied to 'double.()'",
            ),
        ] {
            assert_eq!(messages(expression), [message], "{expression}");
        }
    }
}
