//! The limits OCM evaluates `celSelector` under, enforced around the `cel` crate, which has
//! none of its own that hold: its parser and evaluator recurse once per level of a
//! left-deep chain (`1 + 1 + ...`) and comprehensions run without a budget.
//!
//! - Before parsing, cel-go's parser limits (its defaults, which OCM keeps): at most
//!   100,000 code points, and at most 250 levels of nesting, where cel-go counts every
//!   operand of an operator chain (except `&&` and `||`, which it balances), every member
//!   access, index and call on a value, and every bracket. The count here is lexical, made
//!   in one pass over the text, so nothing deep ever reaches the parser.
//! - While evaluating, OCM's budget (`pkg/placement/helpers/cel.go`): each expression may
//!   cost `k8s.io/apiserver/pkg/apis/cel.PerCallLimit` (1,000,000) and one cluster's
//!   expressions together `RuntimeCELCostBudget` (10,000,000). The cost is counted as
//!   cel-go's runtime tracker does for what these expressions can do: 1 per variable, field
//!   access, function call and comprehension step, 10 per list literal, 30 per map literal,
//!   and for `+` a tenth of the result's size (string, bytes or list concatenation). The
//!   parsed expression is rewritten so each of those nodes passes through a charging
//!   function (names starting with `@` cannot be written in CEL source).

use std::cell::Cell;

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, LiteralValue, MapEntryExpr, SelectExpr,
    StructFieldExpr,
};
use cel::{Context, ExecutionError, IdedExpr, Value};

use super::cel_check::is_qualified;

/// cel-go's default `expressionSizeCodePointLimit`.
pub(super) const MAX_CODE_POINTS: usize = 100_000;
/// cel-go's default `maxRecursionDepth`.
pub(super) const MAX_DEPTH: usize = 250;
/// `k8s.io/apiserver/pkg/apis/cel.PerCallLimit`: one expression on one cluster.
pub(super) const PER_CALL_LIMIT: u64 = 1_000_000;
/// `k8s.io/apiserver/pkg/apis/cel.RuntimeCELCostBudget`: every expression on one cluster.
pub(super) const CLUSTER_BUDGET: u64 = 10_000_000;

const CHARGE: &str = "@charge";
const CHARGE_SIZE: &str = "@charge_size";
const LIST_CREATE_COST: i64 = 10;
const MAP_CREATE_COST: i64 = 30;
const STRUCT_CREATE_COST: i64 = 40;

/// An expression over one of cel-go's parser limits, with cel-go's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SourceLimit {
    #[error(
        "expression code point size exceeds limit: size: {size}, limit {}",
        MAX_CODE_POINTS
    )]
    TooLong { size: usize },
    #[error("expression recursion limit exceeded: {}", MAX_DEPTH)]
    TooDeep,
}

/// cel-go's parser errors for an expression over its size or nesting limit.
pub(super) fn check_source(expression: &str) -> Result<(), SourceLimit> {
    let size = expression.chars().count();
    if size > MAX_CODE_POINTS {
        return Err(SourceLimit::TooLong { size });
    }
    if nesting(expression.as_bytes()) > MAX_DEPTH {
        return Err(SourceLimit::TooDeep);
    }
    Ok(())
}

/// The deepest nesting in the text: over the open brackets, one per bracket plus one per
/// chained operand before this point at that bracket's level.
fn nesting(text: &[u8]) -> usize {
    // Chained operands so far at each open bracket (the first is the whole expression).
    let mut chains: Vec<usize> = vec![0];
    let mut depth = 1usize;
    let mut deepest = depth;
    let mut after_operand = false;
    let mut at = 0;
    while let Some(&byte) = text.get(at) {
        let next = text.get(at + 1).copied();
        at += 1;
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c => continue,
            b'/' if next == Some(b'/') => {
                while text.get(at).is_some_and(|byte| *byte != b'\n') {
                    at += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                at = skip_string(text, at - 1, false);
                after_operand = true;
                continue;
            }
            b'(' | b'[' | b'{' => {
                // An index or call on a value nests it one level deeper, like an operator.
                if after_operand && byte != b'{' {
                    chain(&mut chains, &mut depth);
                }
                chains.push(0);
                depth += 1;
                after_operand = false;
            }
            b')' | b']' | b'}' => {
                if chains.len() > 1 {
                    depth -= 1 + chains.pop().unwrap_or(0);
                }
                after_operand = true;
            }
            b',' | b':' => {
                end_chain(&mut chains, &mut depth);
                after_operand = false;
            }
            b'&' | b'|' if next == Some(byte) => {
                at += 1;
                end_chain(&mut chains, &mut depth);
                after_operand = false;
            }
            b'.' if !after_operand || next.is_some_and(|next| next.is_ascii_digit()) => {
                at = skip_number(text, at - 1);
                after_operand = true;
            }
            b'0'..=b'9' => {
                at = skip_number(text, at - 1);
                after_operand = true;
            }
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
                let start = at - 1;
                while text
                    .get(at)
                    .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'_')
                {
                    at += 1;
                }
                let word = text.get(start..at).unwrap_or_default();
                let quote = text.get(at).filter(|byte| matches!(byte, b'"' | b'\''));
                if quote.is_some() && is_string_prefix(word) {
                    let raw = word.iter().any(|byte| byte.eq_ignore_ascii_case(&b'r'));
                    at = skip_string(text, at, raw);
                    after_operand = true;
                } else if word == b"in" {
                    chain(&mut chains, &mut depth);
                    after_operand = false;
                } else {
                    after_operand = true;
                }
            }
            // `-` and `!` before an operand are unary: cel-go keeps them flat.
            b'-' | b'!' if !after_operand => {}
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'?' | b'.' => {
                if matches!(next, Some(b'=')) && byte != b'?' && byte != b'.' {
                    at += 1;
                }
                chain(&mut chains, &mut depth);
                after_operand = false;
            }
            _ => after_operand = false,
        }
        deepest = deepest.max(depth);
    }
    deepest
}

fn chain(chains: &mut [usize], depth: &mut usize) {
    if let Some(count) = chains.last_mut() {
        *count += 1;
        *depth += 1;
    }
}

fn end_chain(chains: &mut [usize], depth: &mut usize) {
    if let Some(count) = chains.last_mut() {
        *depth -= *count;
        *count = 0;
    }
}

/// `r`, `b` and their combinations, in any case, before a quote.
fn is_string_prefix(word: &[u8]) -> bool {
    word.len() <= 2
        && word
            .iter()
            .all(|byte| matches!(byte.to_ascii_lowercase(), b'r' | b'b'))
}

/// Past the string literal whose opening quote is at `start` (single or triple quoted).
fn skip_string(text: &[u8], start: usize, raw: bool) -> usize {
    let Some(&quote) = text.get(start) else {
        return start;
    };
    let triple = text.get(start..start + 3) == Some(&[quote; 3][..]);
    let mut at = start + if triple { 3 } else { 1 };
    while let Some(&byte) = text.get(at) {
        if byte == b'\\' && !raw {
            at += 2;
        } else if triple {
            if text.get(at..at + 3) == Some(&[quote; 3][..]) {
                return at + 3;
            }
            at += 1;
        } else if byte == quote || byte == b'\n' {
            return at + 1;
        } else {
            at += 1;
        }
    }
    text.len()
}

/// Past the numeric literal starting at `start`: digits, `.`, hex digits, `x`, `u`, and a
/// decimal exponent's sign.
fn skip_number(text: &[u8], start: usize) -> usize {
    let hex = text
        .get(start..start + 2)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case(b"0x"));
    let mut at = start + 1;
    while let Some(&byte) = text.get(at) {
        let exponent_sign = !hex
            && matches!(byte, b'+' | b'-')
            && text
                .get(at - 1)
                .is_some_and(|previous| matches!(previous, b'e' | b'E'));
        if byte.is_ascii_alphanumeric() || byte == b'.' || exponent_sign {
            at += 1;
        } else {
            break;
        }
    }
    at
}

/// The expression with every costed node passed through the charging functions.
pub(super) fn instrument(expression: &IdedExpr) -> IdedExpr {
    let id = expression.id;
    match &expression.expr {
        Expr::Unspecified | Expr::Literal(_) => expression.clone(),
        Expr::Ident(_) => charge(id, 1, expression.clone()),
        Expr::Select(select) => charge(
            id,
            1,
            node(
                id,
                Expr::Select(SelectExpr {
                    operand: Box::new(instrument(&select.operand)),
                    field: select.field.clone(),
                    test: select.test,
                }),
            ),
        ),
        Expr::Call(call) => {
            let instrumented = node(
                id,
                Expr::Call(CallExpr {
                    func_name: call.func_name.clone(),
                    // A qualified function's namespace (`optional.of`) is no value to charge.
                    target: call.target.as_ref().map(|target| {
                        Box::new(if is_qualified(target, &call.func_name) {
                            (**target).clone()
                        } else {
                            instrument(target)
                        })
                    }),
                    args: call.args.iter().map(instrument).collect(),
                }),
            );
            if call.func_name == cel::common::ast::operators::ADD {
                node(
                    id,
                    Expr::Call(CallExpr {
                        func_name: CHARGE_SIZE.to_string(),
                        target: None,
                        args: vec![instrumented],
                    }),
                )
            } else {
                charge(id, 1, instrumented)
            }
        }
        Expr::List(list) => {
            let mut list = list.clone();
            list.elements = list.elements.iter().map(instrument).collect();
            charge(id, LIST_CREATE_COST, node(id, Expr::List(list)))
        }
        Expr::Map(map) => {
            let mut map = map.clone();
            for entry in &mut map.entries {
                if let EntryExpr::MapEntry(MapEntryExpr { key, value, .. }) = &mut entry.expr {
                    *key = instrument(key);
                    *value = instrument(value);
                }
            }
            charge(id, MAP_CREATE_COST, node(id, Expr::Map(map)))
        }
        Expr::Struct(object) => {
            let mut object = object.clone();
            for entry in &mut object.entries {
                if let EntryExpr::StructField(StructFieldExpr { value, .. }) = &mut entry.expr {
                    *value = instrument(value);
                }
            }
            charge(id, STRUCT_CREATE_COST, node(id, Expr::Struct(object)))
        }
        Expr::Comprehension(comprehension) => {
            let ComprehensionExpr {
                iter_range,
                iter_var,
                iter_var2,
                accu_var,
                accu_init,
                loop_cond,
                loop_step,
                result,
            } = &**comprehension;
            node(
                id,
                Expr::Comprehension(Box::new(ComprehensionExpr {
                    iter_range: instrument(iter_range),
                    iter_var: iter_var.clone(),
                    iter_var2: iter_var2.clone(),
                    accu_var: accu_var.clone(),
                    accu_init: instrument(accu_init),
                    loop_cond: keep_literal(loop_cond),
                    loop_step: instrument_step(loop_step, accu_var),
                    result: keep_accumulator(result, accu_var),
                })),
            )
        }
    }
}

/// The `cel` crate recognises the loop steps of `all`/`exists` (`@result && x`) and of
/// `map`/`filter` (`@result + [x]`, maybe guarded) by their shape: the first for cel-go's
/// error absorption, the second to append in place. Those shapes are kept, and the step's
/// cost of 1 is charged on the part evaluated every iteration.
fn instrument_step(step: &IdedExpr, accu: &str) -> IdedExpr {
    use cel::common::ast::operators::{ADD, CONDITIONAL, LOGICAL_AND, LOGICAL_OR};
    let Expr::Call(call) = &step.expr else {
        return charge(step.id, 1, instrument(step));
    };
    let is_accu =
        |expression: &IdedExpr| matches!(&expression.expr, Expr::Ident(name) if name == accu);
    let rebuilt = |args: Vec<IdedExpr>| {
        node(
            step.id,
            Expr::Call(CallExpr {
                func_name: call.func_name.clone(),
                target: None,
                args,
            }),
        )
    };
    match (
        call.func_name.as_str(),
        call.target.as_ref(),
        call.args.as_slice(),
    ) {
        (LOGICAL_AND | LOGICAL_OR, None, [first, rest]) if is_accu(first) => {
            rebuilt(vec![first.clone(), charge(rest.id, 1, instrument(rest))])
        }
        (
            ADD,
            None,
            [first, IdedExpr {
                id,
                expr: Expr::List(list),
            }],
        ) if is_accu(first) => {
            let mut list = list.clone();
            list.elements = list
                .elements
                .iter()
                .map(|element| charge(element.id, 1, instrument(element)))
                .collect();
            rebuilt(vec![first.clone(), node(*id, Expr::List(list))])
        }
        (CONDITIONAL, None, [guard, append, otherwise]) if is_accu(otherwise) => rebuilt(vec![
            charge(guard.id, 1, instrument(guard)),
            instrument_step(append, accu),
            otherwise.clone(),
        ]),
        _ => charge(step.id, 1, instrument(step)),
    }
}

/// A literal loop condition (the crate's in-place append needs it).
fn keep_literal(expression: &IdedExpr) -> IdedExpr {
    match expression.expr {
        Expr::Literal(_) => expression.clone(),
        _ => instrument(expression),
    }
}

/// A result that is the accumulator itself (the crate's in-place append needs it).
fn keep_accumulator(expression: &IdedExpr, accu: &str) -> IdedExpr {
    match &expression.expr {
        Expr::Ident(name) if name == accu => expression.clone(),
        _ => instrument(expression),
    }
}

fn node(id: u64, expr: Expr) -> IdedExpr {
    IdedExpr { id, expr }
}

fn charge(id: u64, cost: i64, expression: IdedExpr) -> IdedExpr {
    node(
        id,
        Expr::Call(CallExpr {
            func_name: CHARGE.to_string(),
            target: None,
            args: vec![
                node(id, Expr::Literal(LiteralValue::Int(cost.into()))),
                expression,
            ],
        }),
    )
}

/// Registers the charging functions the instrumented expressions call.
pub(super) fn add_functions(context: &mut Context<'static, 'static>) {
    // Names starting with `@` are not standard functions, so adding them cannot conflict.
    let _ = context.add_function(CHARGE, |cost: i64, value: Value| -> cel::ResolveResult {
        spend(u64::try_from(cost).unwrap_or(0))?;
        Ok(value)
    });
    let _ = context.add_function(CHARGE_SIZE, |value: Value| -> cel::ResolveResult {
        let size = match &value {
            Value::String(text) => text.len(),
            Value::Bytes(bytes) => bytes.len(),
            Value::List(items) => items.len(),
            _ => 0,
        };
        spend(1 + (size as u64).div_ceil(10))?;
        Ok(value)
    });
}

thread_local! {
    /// What the evaluation running on this thread may still spend; `None` once it ran out.
    static LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

fn spend(cost: u64) -> Result<(), ExecutionError> {
    LEFT.with(|left| {
        let rest = left.get().and_then(|left| left.checked_sub(cost));
        left.set(rest);
        match rest {
            Some(_) => Ok(()),
            None => Err(ExecutionError::function_error(
                CHARGE,
                "operation cancelled: actual cost limit exceeded",
            )),
        }
    })
}

/// Runs `evaluate` with `limit` to spend: what it returned and what it spent, or `None`
/// when it ran out.
pub(super) fn metered<R>(limit: u64, evaluate: impl FnOnce() -> R) -> Option<(R, u64)> {
    LEFT.with(|left| left.set(Some(limit)));
    let result = evaluate();
    let left = LEFT.with(Cell::get)?;
    Some((result, limit - left))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(text: &str) -> usize {
        nesting(text.as_bytes())
    }

    #[test]
    fn left_deep_chains_count_every_operand() {
        assert_eq!(depth("1"), 1);
        assert_eq!(depth("1 + 1 + 1"), 3);
        assert_eq!(depth("a.b.c.d"), 4);
        assert_eq!(depth("a[0][1][2]"), 5);
        assert_eq!(depth(&"1 + ".repeat(300)), 301);
    }

    #[test]
    fn and_or_commas_and_unary_operators_do_not_chain() {
        assert_eq!(depth(&"true && ".repeat(300)), 1);
        assert_eq!(depth(&"x || ".repeat(300)), 1);
        assert_eq!(depth("[1, 2, 3, 4, 5]"), 2);
        assert_eq!(depth("!!!!!-----1"), 1);
        assert_eq!(depth("-1 - -1"), 2);
    }

    #[test]
    fn brackets_nest() {
        assert_eq!(depth("((((1))))"), 5);
        assert_eq!(depth("[[[1]]]"), 4);
        assert_eq!(depth("{'a': {'b': 1}}"), 3);
    }

    #[test]
    fn strings_comments_and_numbers_are_not_operators() {
        assert_eq!(depth("'(((+ + +' == \"[[[\""), 2);
        assert_eq!(depth("r'\\' == '''a ' + ''' + b'x'"), 3);
        assert_eq!(depth("1 // + + + (((\n"), 1);
        assert_eq!(depth("1.5e+10 == .5 && 0x1E+1 > 0"), 3);
    }

    #[test]
    fn limits_are_cel_go_errors() {
        assert!(check_source("1 + 1").is_ok());
        let too_deep = check_source(&format!("{}1", "1 + ".repeat(300))).unwrap_err();
        assert_eq!(too_deep, SourceLimit::TooDeep);
        assert_eq!(
            too_deep.to_string(),
            "expression recursion limit exceeded: 250"
        );
        let too_long = check_source(&"1".repeat(100_001)).unwrap_err();
        assert_eq!(too_long, SourceLimit::TooLong { size: 100_001 });
        assert_eq!(
            too_long.to_string(),
            "expression code point size exceeds limit: size: 100001, limit 100000"
        );
    }
}
