//! The Lua sandbox under attack: every action of the `hostile` test module tries to hang,
//! exhaust or escape the VM. Each must fail within 2 seconds with an error that names the
//! script's file and line, leave the table as it was, and leave the game playable.

use std::time::{Duration, Instant};

use chancery_core::{GameSpec, Session};
use chancery_tests::{load, test_module};

fn lab() -> Session {
    let module = load(&test_module("hostile"));
    chancery_core::start_game(module, GameSpec::new("lab", 1)).expect("the lab starts")
}

/// Runs `action`, expects it to fail quickly with a message containing every one of
/// `expected`, then checks the game still works.
fn attack(action: &str, expected: &[&str]) {
    let mut session = lab();
    let started = Instant::now();
    let err = session
        .act(action, chancery_core::Value::Nil)
        .expect_err(action)
        .to_string();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "{action} took {took:?}: {err}"
    );
    for text in expected {
        assert!(err.contains(text), "{action}: expected {text:?} in:\n{err}");
    }
    assert_eq!(
        session.history().len(),
        0,
        "{action}: a failed action is not recorded"
    );
    assert_eq!(
        session.table().counter(&"ok".into()),
        Ok(0),
        "{action}: the table is unchanged"
    );
    session
        .act("ok", chancery_core::Value::Nil)
        .expect("the game goes on after the attack");
    session
        .act("ok", chancery_core::Value::Nil)
        .expect("and again");
    assert_eq!(session.table().counter(&"ok".into()), Ok(2));
}

/// The start of the budget's message, whether the instruction count or the wall clock
/// stopped the call (an unoptimised build may reach the clock first).
const STOPPED: &str = "script stopped: it ran";

#[test]
fn an_endless_loop_is_stopped_and_named_by_file_and_line() {
    attack(
        "spin",
        &[
            "module 'hostile', state 'lab', action 'spin'",
            "hostile/rules/main.lua:26:",
            STOPPED,
        ],
    );
}

#[test]
fn an_endless_loop_inside_coroutines_is_stopped() {
    attack("spin_in_coroutine", &["hostile/rules/main.lua:", STOPPED]);
}

#[test]
fn an_endless_loop_wrapped_in_pcall_again_and_again_is_stopped() {
    attack("spin_in_pcall", &["hostile/rules/main.lua:", STOPPED]);
}

#[test]
fn nested_pcalls_cannot_keep_a_loop_alive() {
    attack(
        "spin_in_nested_pcall",
        &["hostile/rules/main.lua:", STOPPED],
    );
}

#[test]
fn an_endless_error_handler_is_stopped() {
    attack(
        "spin_in_error_handler",
        &["hostile/rules/main.lua:61:", STOPPED],
    );
}

#[test]
fn a_pathological_pattern_is_stopped_although_it_runs_in_no_lua_code() {
    attack("pattern", &["hostile/rules/main.lua:66:", STOPPED]);
}

#[test]
fn a_pathological_gsub_is_stopped() {
    attack("gsub_pattern", &["hostile/rules/main.lua:70:", STOPPED]);
}

#[test]
fn allocating_a_gigabyte_fails_with_a_memory_error() {
    attack("allocate", &["out of memory"]);
}

#[test]
fn growing_a_table_without_end_fails_with_a_memory_error() {
    attack("grow_table", &["out of memory"]);
}

#[test]
fn forbidden_libraries_are_not_there() {
    attack(
        "use_io",
        &["hostile/rules/main.lua:88:", "undeclared global 'io'"],
    );
    attack("use_os", &["undeclared global 'os'"]);
    attack("use_load", &["undeclared global 'load'"]);
    attack("use_debug", &["undeclared global 'debug'"]);
    attack("use_require", &["undeclared global 'require'"]);
}

#[test]
fn binary_chunks_and_unseeded_randomness_are_gone() {
    attack("dump", &["attempt to call a nil value (field 'dump')"]);
    attack("random", &["attempt to call a nil value (field 'random')"]);
}

#[test]
fn the_string_library_cannot_be_reached_through_its_metatable() {
    attack("string_metatable", &["attempt to index a boolean value"]);
}

#[test]
fn module_data_and_ctx_are_read_only() {
    attack(
        "write_data",
        &["card 'c' is read-only (tried to set 'name')"],
    );
    attack("write_ctx", &["ctx.counter cannot be set"]);
}

#[test]
fn setting_an_undeclared_global_is_an_error() {
    attack(
        "set_global",
        &[
            "hostile/rules/main.lua:128:",
            "assignment to undeclared global 'leaked'",
        ],
    );
}

#[test]
fn a_sort_too_large_to_interrupt_is_refused() {
    attack("huge_sort", &["table.sort: more than 1000000 items"]);
}

#[test]
fn rule_variables_must_be_plain_data() {
    attack(
        "hold_function_in_vars",
        &["ctx.vars.f: a function is not plain data"],
    );
}

#[test]
fn runaway_recursion_fails_cleanly() {
    attack("recurse", &["stack overflow"]);
}

#[test]
fn a_finalizer_that_would_run_without_hooks_is_refused() {
    attack(
        "spin_in_finalizer",
        &[
            "hostile/rules/main.lua:151:",
            "__gc metamethods are not allowed",
        ],
    );
}

#[test]
fn to_be_closed_variables_are_refused_when_the_module_loads() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("hostile"));
    let main = dir.join("rules/main.lua");
    let text = std::fs::read_to_string(&main).expect("read");
    let text = text.replace(
        "function lab.ok(ctx)",
        "function lab.closing(ctx)\n  local guard <close> = setmetatable({}, { __close = function() while true do end end })\nend\n\nfunction lab.ok(ctx)",
    );
    std::fs::write(&main, text).expect("write");
    let diagnostics =
        chancery_core::load_module(&dir, &chancery_tests::no_overlay()).expect_err("refused");
    let first = diagnostics
        .iter()
        .next()
        .expect("one diagnostic")
        .to_string();
    assert!(first.ends_with("rules/main.lua:22:15: to-be-closed variables (<close>) are not allowed in modules: their handlers could run where the instruction budget cannot stop them"), "{first}");
}

#[test]
fn many_attacks_in_a_row_leave_the_same_session_working() {
    let mut session = lab();
    for action in [
        "spin",
        "pattern",
        "allocate",
        "spin_in_pcall",
        "use_io",
        "grow_table",
    ] {
        assert!(
            session.act(action, chancery_core::Value::Nil).is_err(),
            "{action} must fail"
        );
    }
    session
        .act("ok", chancery_core::Value::Nil)
        .expect("still playable");
    assert_eq!(session.table().counter(&"ok".into()), Ok(1));
}
