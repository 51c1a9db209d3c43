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

use cel::common::ast::{EntryExpr, Expr, LiteralValue, SourceInfo};
use cel::IdedExpr;

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
pub fn is_qualified(target: &IdedExpr, function: &str) -> bool {
    matches!(&target.expr, Expr::Ident(namespace)
        if QUALIFIED.contains(&(namespace.as_str(), function)))
}

/// A type the checker is certain of; `Dyn` is anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Bool,
    Null,
    Dyn,
}

impl Type {
    fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Bool => "bool",
            Type::Null => "null_type",
            Type::Dyn => "dyn",
        }
    }

    fn numeric(self) -> bool {
        matches!(self, Type::Int | Type::Uint | Type::Double)
    }
}

/// One error, at the offset of the expression cel-go reports it at.
pub struct CheckError {
    pub offset: usize,
    pub message: String,
}

/// Every error cel-go's checker would report for `expression`, in no particular order.
pub fn check(expression: &IdedExpr, source_info: &SourceInfo) -> Vec<CheckError> {
    let mut checker = Checker {
        source_info,
        errors: Vec::new(),
    };
    checker.expression(expression);
    checker.errors
}

struct Checker<'s> {
    source_info: &'s SourceInfo,
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
            Expr::Unspecified | Expr::Ident(_) => Type::Dyn,
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
                self.expression(&select.operand);
                if select.test {
                    Type::Bool
                } else {
                    Type::Dyn
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
                self.call(expression, &call.func_name, target, qualified, &arguments)
            }
            Expr::List(list) => {
                for element in &list.elements {
                    self.expression(element);
                }
                Type::Dyn
            }
            Expr::Map(map) => {
                for entry in &map.entries {
                    self.entry(&entry.expr);
                }
                Type::Dyn
            }
            Expr::Struct(object) => {
                for entry in &object.entries {
                    self.entry(&entry.expr);
                }
                Type::Dyn
            }
            Expr::Comprehension(comprehension) => {
                for part in [
                    &comprehension.iter_range,
                    &comprehension.accu_init,
                    &comprehension.loop_cond,
                    &comprehension.loop_step,
                    &comprehension.result,
                ] {
                    self.expression(part);
                }
                Type::Dyn
            }
        }
    }

    fn entry(&mut self, entry: &EntryExpr) {
        match entry {
            EntryExpr::MapEntry(entry) => {
                self.expression(&entry.key);
                self.expression(&entry.value);
            }
            EntryExpr::StructField(field) => {
                self.expression(&field.value);
            }
        }
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
            return match result {
                Ok(result) => result,
                Err(()) => {
                    let types: Vec<&str> = arguments.iter().map(|t| t.name()).collect();
                    self.error(
                        expression,
                        format!(
                            "found no matching overload for '{function}' applied to '({})'",
                            types.join(", ")
                        ),
                    );
                    Type::Dyn
                }
            };
        }
        // Operators (`_?_:_`, `_[_]`, `@in`, ...) are the parser's own.
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
        if let Some(applied) = string_overload_missing(function, target, arguments) {
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
/// `size`, called with operands of certain types no overload takes: cel-go's rendering of
/// them (`int.(string)`, `(bool)`); `None` when an overload may take them.
fn string_overload_missing(
    function: &str,
    target: Option<Type>,
    arguments: &[Type],
) -> Option<String> {
    let fits = |t: &Type, wanted: &[Type]| *t == Type::Dyn || wanted.contains(t);
    let sized = [Type::String, Type::Bytes];
    match (function, target, arguments) {
        ("contains" | "startsWith" | "endsWith" | "matches", Some(receiver), [argument])
            if !fits(&receiver, &[Type::String]) || !fits(argument, &[Type::String]) =>
        {
            Some(format!("{}.({})", receiver.name(), argument.name()))
        }
        ("size", None, [argument]) if !fits(argument, &sized) => {
            Some(format!("({})", argument.name()))
        }
        ("size", Some(receiver), []) if !fits(&receiver, &sized) => {
            Some(format!("{}.()", receiver.name()))
        }
        _ => None,
    }
}

/// An operator's result for operands of these types: `Some(Err(()))` when no overload of it
/// takes them, `None` when `function` is no operator checked here.
fn operator(function: &str, operands: &[Type]) -> Option<Result<Type, ()>> {
    let known = !operands.contains(&Type::Dyn);
    let result = match (function, operands) {
        ("_&&_" | "_||_", [left, right]) => {
            let boolean = |t: &Type| matches!(t, Type::Bool | Type::Dyn);
            (boolean(left) && boolean(right)).then_some(Type::Bool)
        }
        ("!_", [operand]) => matches!(operand, Type::Bool | Type::Dyn).then_some(Type::Bool),
        ("-_", [operand]) => match operand {
            Type::Int | Type::Double | Type::Dyn => Some(*operand),
            _ => None,
        },
        ("_<_" | "_<=_" | "_>_" | "_>=_", [left, right]) => {
            let comparable = !known
                || (left.numeric() && right.numeric())
                || (left == right && matches!(left, Type::String | Type::Bytes | Type::Bool));
            comparable.then_some(Type::Bool)
        }
        ("_==_" | "_!=_", [_, _]) => Some(Type::Bool),
        ("_+_", [left, right]) if known => (left == right
            && matches!(
                left,
                Type::Int | Type::Uint | Type::Double | Type::String | Type::Bytes
            ))
        .then_some(*left),
        ("_-_" | "_*_" | "_/_", [left, right]) if known => {
            (left == right && left.numeric()).then_some(*left)
        }
        ("_%_", [left, right]) if known => {
            (left == right && matches!(left, Type::Int | Type::Uint)).then_some(*left)
        }
        ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", [_, _]) => Some(Type::Dyn),
        _ => return None,
    };
    Some(result.ok_or(()))
}

#[cfg(test)]
mod tests {
    use cel::Program;

    use super::*;

    fn messages(expression: &str) -> Vec<String> {
        let program = Program::compile(expression).unwrap_or_else(|e| panic!("{e:?}"));
        check(program.expression(), program.source_info())
            .into_iter()
            .map(|error| error.message)
            .collect()
    }

    #[test]
    fn what_cel_go_accepts_checks() {
        for expression in [
            "1 == 1.0 || 'a' != 'b'",
            "[1] + [2] == [1, 2] && {'a': 1}['a'] == 1",
            "true ? 1 : 'a'",
            "'a' in ['a'] && has(managedCluster.metadata)",
            "timestamp('2026-01-01T00:00:00Z') - duration('1h') < timestamp('2026-01-02T00:00:00Z')",
            "managedCluster.metadata.labels.all(k, k.startsWith('a')) && [1, 2].exists(x, x > 1u)",
            "1u + 2u == 3u && 1.5 * 2.0 == 3.0 && 7 % 2 == 1 && -1 < 0 && !false",
            "'a' + 'b' == 'ab' && b'a' + b'b' == b'ab' && 1 < 2u && 2.0 >= 1",
            "size('ab') == 2 && size(b'a') == 1 && 'ab'.size() == 2 && size([1]) == 1",
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
            (
                "'a' && true",
                "found no matching overload for '_&&_' applied to '(string, bool)'",
            ),
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
