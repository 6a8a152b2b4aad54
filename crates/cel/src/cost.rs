//! The evaluation cost limit: a compiled rule is rewritten so that evaluating it meters its own
//! work, and an evaluation that spends more than [`CEL_COST_LIMIT`] stops with an error.
//!
//! cel-rust has no cost accounting (cel-go has one, which OLM leaves off), and a CEL rule can
//! ask for work far beyond its size: nested comprehensions multiply (`l.map(a, l.map(b, ...))`
//! over a list of 10 is 10^depth steps), values double at each level (`[s].map(x, x + x)[0]`),
//! list literals copy values on each iteration. Without a limit such a rule runs for hours or
//! exhausts memory. Every evaluation works in a fixed number of passes over the rule, except
//! where it repeats (comprehension steps) or where one step's work is proportional to a value's
//! size (copies, comparisons, conversions). The rewrite charges exactly those:
//!
//! - each comprehension step calls [`TICK`] with the size of the step's expression (nodes plus
//!   the bytes of its string literals) before the step's body runs;
//! - each value a call consumes, a list or map literal stores, or a comprehension iterates over
//!   is passed through [`CHARGE`], which charges its size (elements, map entries, bytes of
//!   strings, all levels down) and returns it unchanged. Values computed by a call are not
//!   charged again (their inputs were), so a chain `a + b + c` charges its leaves once, and
//!   the rewrite adds no depth to the chains the input limits allow.
//!
//! The sum of the charges bounds the evaluation's time and the memory it builds, within a small
//! factor; the limit is checked as it goes, so an evaluation stops soon after it is crossed.
//! The rewrite keeps the shapes cel-rust recognises (the appending step of `map` and `filter`,
//! the `&&`/`||` fold of `all` and `exists`), so metering adds no asymptotic cost, and it keeps
//! the result of every evaluation that stays within the limit.
//!
//! The meter is a thread-local counter: one evaluation runs on one thread, and cel-rust's
//! function pointers take no context.

use std::cell::Cell;

use cel::common::ast::{operators, CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, ListExpr, LiteralValue};
use cel::common::types::{CelBool, CelBytes, CelInt, CelList, CelMap, CelString};
use cel::common::value::{CowVal, Val};
use cel::ExecutionError;

#[cfg(test)]
use super::CEL_COST_LIMIT;

/// The function a comprehension step calls first: `@cost_tick(weight)`.
pub(super) const TICK: &str = "@cost_tick";
/// The function values pass through to be charged: `@cost_charge(value)`.
pub(super) const CHARGE: &str = "@cost_charge";

thread_local! {
    /// (spent, limit) of the evaluation running on this thread.
    static METER: Cell<(u64, u64)> = const { Cell::new((0, u64::MAX)) };
}

/// Runs `f` (one evaluation) with a fresh meter allowing `limit`; returns its result and what
/// it spent (more than `limit` when it was stopped).
pub(super) fn metered<T>(limit: u64, f: impl FnOnce() -> T) -> (T, u64) {
    let saved = METER.with(|m| m.replace((0, limit)));
    let result = f();
    let (spent, _) = METER.with(|m| m.replace(saved));
    (result, spent)
}

/// Adds `units` to the running evaluation's meter; `false` once it is past its limit.
fn spend(units: u64) -> bool {
    METER.with(|m| {
        let (spent, limit) = m.get();
        let spent = spent.saturating_add(units);
        m.set((spent, limit));
        spent <= limit
    })
}

/// What is left of the running evaluation's limit (at least 1, so a size scan always stops).
fn remaining() -> u64 {
    METER.with(|m| {
        let (spent, limit) = m.get();
        limit.saturating_sub(spent).max(1)
    })
}

fn exceeded(function: &str) -> ExecutionError {
    ExecutionError::function_error(function, "evaluation cost limit exceeded")
}

/// `@cost_tick(weight)`: charge one comprehension step; true, or an error past the limit.
pub(super) fn tick<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let weight = args.first().and_then(|a| a.downcast_ref::<CelInt>()).map_or(1, |w| (*w.inner()).max(1) as u64);
    if spend(weight) {
        Ok(CowVal::owned(CelBool::from(true)))
    } else {
        Err(exceeded(TICK))
    }
}

/// `@cost_charge(value)`: charge the value's size; the value, or an error past the limit.
pub(super) fn charge<'b, 'v>(mut args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    if args.is_empty() {
        return Err(ExecutionError::invalid_argument_count(1, 0));
    }
    let value = args.swap_remove(0);
    if spend(size(value.as_ref(), remaining())) {
        Ok(value)
    } else {
        Err(exceeded(CHARGE))
    }
}

/// The size of a value in cost units: 1 per value, plus its elements and entries all levels
/// down, plus the bytes of its strings; counting stops past `cap`.
pub(super) fn size(value: &dyn Val, cap: u64) -> u64 {
    let mut total: u64 = 0;
    let mut stack: Vec<&dyn Val> = vec![value];
    while let Some(v) = stack.pop() {
        total += 1;
        if let Some(s) = v.downcast_ref::<CelString>() {
            total += s.inner().len() as u64;
        } else if let Some(b) = v.downcast_ref::<CelBytes>() {
            total += b.inner().len() as u64;
        } else if let Some(l) = v.downcast_ref::<CelList>() {
            stack.extend(l.inner().iter().map(|x| x.as_ref()));
        } else if let Some(m) = v.downcast_ref::<CelMap>() {
            for (k, x) in m.inner() {
                stack.push(k.inner());
                stack.push(x.as_ref());
            }
        }
        if total > cap {
            break;
        }
    }
    total
}

/// The rule rewritten to meter itself (see the module documentation). Node ids of added
/// nodes continue after the program's largest.
pub(super) fn meter(program: &IdedExpr) -> IdedExpr {
    let mut r = Rewriter { next_id: max_id(program) + 1 };
    r.expr(program)
}

fn max_id(e: &IdedExpr) -> u64 {
    let mut max = e.id;
    children(e, &mut |c| max = max.max(max_id(c)));
    max
}

/// Calls `f` on each direct child expression of `e`.
fn children<'e>(e: &'e IdedExpr, f: &mut impl FnMut(&'e IdedExpr)) {
    match &e.expr {
        Expr::Call(c) => {
            c.target.iter().for_each(|t| f(t));
            c.args.iter().for_each(&mut *f);
        }
        Expr::Comprehension(c) => {
            for x in [&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step, &c.result] {
                f(x);
            }
        }
        Expr::List(l) => l.elements.iter().for_each(f),
        Expr::Map(m) => {
            for entry in &m.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    f(&me.key);
                    f(&me.value);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(sf) = &entry.expr {
                    f(&sf.value);
                }
            }
        }
        Expr::Select(s) => f(&s.operand),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

/// What evaluating `e` once costs at most, apart from the values it charges: its nodes, and
/// the bytes of its string literals (copied each time they are evaluated).
fn weight(e: &IdedExpr) -> u64 {
    let own = match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => 1 + s.inner().len() as u64,
        Expr::Literal(LiteralValue::Bytes(b)) => 1 + b.inner().len() as u64,
        _ => 1,
    };
    let mut total = own;
    children(e, &mut |c| total = total.saturating_add(weight(c)));
    total
}

/// Calls that only decide control flow or work on scalars: their operands are not charged.
const CONTROL: &[&str] =
    &[operators::LOGICAL_AND, operators::LOGICAL_OR, operators::LOGICAL_NOT, operators::NOT_STRICTLY_FALSE];

struct Rewriter {
    next_id: u64,
}

impl Rewriter {
    fn node(&mut self, expr: Expr) -> IdedExpr {
        let id = self.next_id;
        self.next_id += 1;
        IdedExpr { id, expr }
    }

    fn call(&mut self, func_name: &str, args: Vec<IdedExpr>) -> IdedExpr {
        self.node(Expr::Call(CallExpr { func_name: func_name.to_string(), target: None, args }))
    }

    /// `@cost_tick(weight) ? then : otherwise`.
    fn ticked(&mut self, weight: u64, then: IdedExpr, otherwise: IdedExpr) -> IdedExpr {
        let w = self.node(Expr::Literal(LiteralValue::Int(CelInt::from(weight.min(i64::MAX as u64) as i64))));
        let tick = self.call(TICK, vec![w]);
        self.call(operators::CONDITIONAL, vec![tick, then, otherwise])
    }

    fn false_literal(&mut self) -> IdedExpr {
        self.node(Expr::Literal(LiteralValue::Boolean(CelBool::from(false))))
    }

    /// The rewritten `e`, passed through `@cost_charge` when it is a stored value (a name, a
    /// field, a literal collection, a comprehension's result); calls are charged through their
    /// own operands, scalar literals through the step weights.
    fn charged(&mut self, e: &IdedExpr) -> IdedExpr {
        let inner = self.expr(e);
        match &e.expr {
            Expr::Ident(name) if name.starts_with('@') => inner,
            Expr::Ident(_) | Expr::Select(_) | Expr::List(_) | Expr::Map(_) | Expr::Comprehension(_) => {
                self.call(CHARGE, vec![inner])
            }
            _ => inner,
        }
    }

    fn expr(&mut self, e: &IdedExpr) -> IdedExpr {
        let expr = match &e.expr {
            Expr::Call(c) if CONTROL.contains(&c.func_name.as_str()) => Expr::Call(CallExpr {
                func_name: c.func_name.clone(),
                target: c.target.as_ref().map(|t| Box::new(self.expr(t))),
                args: c.args.iter().map(|a| self.expr(a)).collect(),
            }),
            Expr::Call(c) if c.func_name == operators::CONDITIONAL && c.args.len() == 3 => {
                let cond = self.expr(&c.args[0]);
                let args = vec![cond, self.charged(&c.args[1]), self.charged(&c.args[2])];
                Expr::Call(CallExpr { func_name: c.func_name.clone(), target: None, args })
            }
            Expr::Call(c) => Expr::Call(CallExpr {
                func_name: c.func_name.clone(),
                target: c.target.as_ref().map(|t| Box::new(self.charged(t))),
                args: c.args.iter().map(|a| self.charged(a)).collect(),
            }),
            Expr::List(l) => Expr::List(ListExpr {
                elements: l.elements.iter().map(|x| self.charged(x)).collect(),
                optional_indices: l.optional_indices.clone(),
            }),
            Expr::Map(m) => {
                let mut m = m.clone();
                for entry in &mut m.entries {
                    if let EntryExpr::MapEntry(me) = &mut entry.expr {
                        let (key, value) = (self.charged(&me.key), self.charged(&me.value));
                        me.key = key;
                        me.value = value;
                    }
                }
                Expr::Map(m)
            }
            Expr::Select(s) => {
                let operand = Box::new(self.expr(&s.operand));
                Expr::Select(cel::common::ast::SelectExpr { operand, field: s.field.clone(), test: s.test })
            }
            Expr::Comprehension(c) => Expr::Comprehension(Box::new(self.comprehension(c))),
            other => other.clone(),
        };
        IdedExpr { id: e.id, expr }
    }

    fn comprehension(&mut self, c: &ComprehensionExpr) -> ComprehensionExpr {
        let weight = weight(&c.loop_cond).saturating_add(weight(&c.loop_step));
        ComprehensionExpr {
            iter_range: self.charged(&c.iter_range),
            iter_var: c.iter_var.clone(),
            iter_var2: c.iter_var2.clone(),
            accu_var: c.accu_var.clone(),
            accu_init: self.expr(&c.accu_init),
            loop_cond: self.expr(&c.loop_cond),
            loop_step: self.step(&c.loop_step, &c.accu_var, weight),
            result: self.expr(&c.result),
        }
    }

    /// A comprehension step with its tick in front, in the shapes cel-rust recognises.
    fn step(&mut self, step: &IdedExpr, accu: &str, weight: u64) -> IdedExpr {
        let is_accu = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(n) if n == accu);
        let appends = |e: &IdedExpr| match &e.expr {
            Expr::Call(c) if c.func_name == operators::ADD && c.target.is_none() && c.args.len() == 2 => {
                is_accu(&c.args[0]) && matches!(c.args[1].expr, Expr::List(_))
            }
            _ => false,
        };
        let Expr::Call(call) = &step.expr else {
            let accu_ident = self.node(Expr::Ident(accu.to_string()));
            let body = self.expr(step);
            return self.ticked(weight, body, accu_ident);
        };
        let args = &call.args;
        let logical = [operators::LOGICAL_AND, operators::LOGICAL_OR].contains(&call.func_name.as_str());
        let conditional = call.func_name == operators::CONDITIONAL && args.len() == 3;
        if logical && args.len() == 2 && is_accu(&args[0]) && call.target.is_none() {
            // all / exists: `@result && (tick ? body : false)`.
            let body = self.expr(&args[1]);
            let otherwise = self.false_literal();
            let guarded = self.ticked(weight, body, otherwise);
            let first = self.expr(&args[0]);
            IdedExpr {
                id: step.id,
                expr: Expr::Call(CallExpr {
                    func_name: call.func_name.clone(),
                    target: None,
                    args: vec![first, guarded],
                }),
            }
        } else if conditional {
            // filter, map with a filter, exists_one: `(tick ? guard : false) ? then : else`.
            let guard = self.expr(&args[0]);
            let otherwise = self.false_literal();
            let guard = self.ticked(weight, guard, otherwise);
            let then = if appends(&args[1]) { self.append(&args[1]) } else { self.charged(&args[1]) };
            let otherwise = self.charged(&args[2]);
            IdedExpr {
                id: step.id,
                expr: Expr::Call(CallExpr {
                    func_name: call.func_name.clone(),
                    target: None,
                    args: vec![guard, then, otherwise],
                }),
            }
        } else if appends(step) {
            // map: `tick ? @result + [x] : @result`, the guarded append cel-rust recognises.
            let body = self.append(step);
            let accu_ident = self.node(Expr::Ident(accu.to_string()));
            self.ticked(weight, body, accu_ident)
        } else {
            let body = self.expr(step);
            let accu_ident = self.node(Expr::Ident(accu.to_string()));
            self.ticked(weight, body, accu_ident)
        }
    }

    /// `@result + [x]` with `x` charged and the `+` and the list left as they are.
    fn append(&mut self, step: &IdedExpr) -> IdedExpr {
        let Expr::Call(c) = &step.expr else { return self.expr(step) };
        let args = c.args.iter().map(|a| self.expr(a)).collect();
        IdedExpr { id: step.id, expr: Expr::Call(CallExpr { func_name: c.func_name.clone(), target: None, args }) }
    }
}

#[cfg(test)]
mod tests {
    //! The limit: rules written to blow up stop with the cost error; ordinary rules are
    //! unchanged and cheap; the rewrite keeps results.

    use serde_json::json;

    use super::*;
    use crate::test_util::{evaluate, with_big_stack};

    /// Ten elements; nested `depth` times with `map`, the result has 10^depth leaves.
    fn nested_maps(depth: usize) -> String {
        let ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        let mut rule = String::from("1");
        for i in 0..depth {
            rule = format!("{ten}.map(x{i}, {rule})");
        }
        format!("size({rule}) > 0")
    }

    #[test]
    fn nested_comprehensions_stop_at_the_limit() {
        with_big_stack(|| {
            let (matched, spent) = evaluate(&nested_maps(3), &[]).expect("1,000 steps are well within the limit");
            assert!(matched && spent < 100_000, "{spent}");
            let err = evaluate(&nested_maps(9), &[]).unwrap_err();
            assert!(err > CEL_COST_LIMIT && err < 2 * CEL_COST_LIMIT, "stops soon after the limit: {err}");
            // exists/all over nested ranges: 10^12 steps without the limit.
            let ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
            let mut rule = String::from("false");
            for i in 0..12 {
                rule = format!("{ten}.exists(x{i}, {rule})");
            }
            assert!(evaluate(&rule, &[]).is_err());
        });
    }

    #[test]
    fn doubling_strings_and_lists_stop_at_the_limit() {
        with_big_stack(|| {
            // Each level doubles the string: 2^30 bytes at depth 30 without the limit.
            let mut s = String::from("'0123456789abcdef'");
            for i in 0..30 {
                s = format!("[{s}].map(y{i}, y{i} + y{i})[0]");
            }
            let err = evaluate(&format!("size({s}) > 0"), &[]).unwrap_err();
            assert!(err > CEL_COST_LIMIT, "{err}");
            let mut l = String::from("[1, 2, 3, 4]");
            for i in 0..30 {
                l = format!("[{l}].map(y{i}, y{i} + y{i})[0]");
            }
            assert!(evaluate(&format!("size({l}) > 0"), &[]).is_err());
            // A big value copied into a list on every step.
            let big = format!("'{}'", "x".repeat(50_000));
            let rule =
                format!("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(a, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(b, {big})) != []");
            assert!(evaluate(&rule, &[]).is_err());
        });
    }

    #[test]
    fn comprehensions_over_large_properties_are_charged_for_their_size() {
        let big: Vec<(&str, serde_json::Value)> =
            (0..2_000).map(|i| ("olm.test", json!({"n": i, "s": "x".repeat(100)}))).collect();
        // One pass: fine.
        let (matched, spent) = evaluate("properties.exists(p, p.value.n == 1999)", &big).unwrap();
        assert!(matched && spent < CEL_COST_LIMIT / 2, "{spent}");
        // Every pair: 4 million steps.
        assert!(evaluate("properties.all(p, properties.all(q, p.value.n >= 0))", &big).is_err());
    }

    #[test]
    fn ordinary_rules_keep_their_results_and_cost_little() {
        let props = [
            ("olm.gvk", json!({"group": "g", "kind": "k", "version": "v"})),
            ("olm.package", json!({"packageName": "x", "version": "1.0.1"})),
            ("olm.test", json!([1, 2, 3])),
        ];
        for (rule, want) in [
            (
                "properties.exists(p, p.type == 'olm.gvk' && p.value == {'group': 'g', 'version': 'v', 'kind': 'k'})",
                true,
            ),
            ("properties.exists(p, p.type == 'olm.package' && semver_compare(p.value.version, '1.0.0') > 0)", true),
            ("properties.all(p, p.type.startsWith('olm.'))", true),
            ("properties.exists_one(p, p.type == 'olm.test')", true),
            ("properties.map(p, p.type).filter(t, t != 'olm.test') == ['olm.gvk', 'olm.package']", true),
            ("properties.map(p, p.type == 'olm.test', p.value) == [[1, 2, 3]]", true),
            ("properties[2].value.map(x, x * 2.0) == [2.0, 4.0, 6.0] && 2 in properties[2].value", true),
            ("size(properties.filter(p, p.type == 'none')) == 0 ? 'a' + 'b' == 'ab' : false", true),
            ("{'a': properties[0].type}.a == 'olm.gvk'", true),
            ("properties.exists(p, p.value.missing == 1)", false),
        ] {
            let (matched, spent) = evaluate(rule, &props).unwrap_or_else(|e| panic!("{rule}: cost {e}"));
            assert_eq!(matched, want, "{rule}");
            assert!(spent < 2_000, "{rule}: {spent}");
        }
    }

    #[test]
    fn metered_and_unmetered_programs_give_the_same_results() {
        use crate::{compile_program, eval};
        let values = [
            ("olm.gvk", json!({"group": "g", "kind": "k", "version": "v"})),
            ("olm.package", json!({"packageName": "x", "version": "1.0.1"})),
            ("olm.test", json!([1, 2, {"a": "b"}, null, "s"])),
        ];
        let props: Vec<(&str, &serde_json::Value)> = values.iter().map(|(t, v)| (*t, v)).collect();
        let rules = [
            "properties.exists(p, p.type == 'olm.gvk')",
            "properties.all(p, has(p.value.group))",
            "properties.all(p, p.type != 'none') && properties.exists_one(p, p.type == 'olm.package')",
            "properties.map(p, p.type) == ['olm.gvk', 'olm.package', 'olm.test']",
            "properties.filter(p, p.type.endsWith('test')).map(p, p.value)[0][2].a == 'b'",
            "properties.map(p, p.type.startsWith('olm.g'), p.type) == ['olm.gvk']",
            "properties[2].value.exists(x, x == null) || 1 / 0 == 1",
            "properties[2].value.all(x, x == 1) || properties[2].value.exists(x, x == 's')",
            "properties.exists(p, p.value.missing == 1) || true",
            "[1, 2, 3].map(x, [x, x * 2]).filter(l, l[1] > 2) == [[2, 4], [3, 6]]",
            "{'k': [properties[0].value.kind]}.k[0] + 'x' == 'kx'",
            "size('abc' + properties[1].value.packageName) == 4 ? true : 1 / 0 == 0",
            "semver_compare(properties[1].value.version, '1.0.0') > 0 && 'x' in ['a', 'x']",
            "properties.exists(p, p.type == 'olm.test' && p.value.exists(x, type(x) == map && x.a == 'b'))",
            "[[1], [2]].all(l, l.all(x, x > 0)) && ![[1], [2]].exists_one(l, l[0] > 0)",
        ];
        for rule in rules {
            let plain = compile_program(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
            let metered = meter(&plain);
            let a = eval::evaluate(&plain, &props, u64::MAX).unwrap().matched;
            let b = eval::evaluate(&metered, &props, u64::MAX).unwrap().matched;
            assert_eq!(a, b, "{rule}");
        }
        // And the whole list once more through the public surface, all true but two.
        let trues = rules.iter().filter(|r| evaluate(r, &values).unwrap().0).count();
        assert_eq!(trues, rules.len() - 1, "one rule above is false by design (exists_one of two)");
    }

    #[test]
    fn the_meter_is_per_evaluation() {
        let rule = nested_maps(4);
        for _ in 0..3 {
            let (matched, spent) = evaluate(&rule, &[]).unwrap();
            assert!(matched && spent > 10_000 && spent < CEL_COST_LIMIT, "{spent}");
        }
    }

    #[test]
    fn sizes_count_elements_entries_and_bytes() {
        let list = CelList::from(vec![
            Box::new(CelString::from("abc")) as Box<dyn Val>,
            Box::new(CelInt::from(1)) as Box<dyn Val>,
        ]);
        assert_eq!(size(&list, u64::MAX), 1 + (1 + 3) + 1);
        assert_eq!(size(&list, 0), 1, "counting stops past the cap");
    }
}
