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
    attack(
        "replace_vars",
        &["hostile/rules/main.lua:271:", "ctx.vars cannot be set"],
    );
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

#[test]
fn a_table_shared_many_times_over_is_refused_before_it_is_copied_out() {
    attack(
        "shared_vars",
        &[
            "hostile/rules/main.lua:",
            "more than 100000 values to copy",
            "(stored by this function or one it calls)",
        ],
    );
}

#[test]
fn cyclic_and_non_finite_values_are_refused_with_the_hook_s_position() {
    attack(
        "cyclic_vars",
        &[
            "hostile/rules/main.lua:",
            "ctx.vars.cycle.again: the table contains itself (it is ctx.vars.cycle)",
        ],
    );
    attack(
        "nan_vars",
        &[
            "hostile/rules/main.lua:",
            "ctx.vars.nan: the number NaN is not finite",
        ],
    );
}

#[test]
fn a_gsub_result_counts_against_the_memory_limit() {
    for action in [
        "gsub_table_memory",
        "gsub_function_memory",
        "gsub_template_memory",
    ] {
        attack(
            action,
            &[
                "hostile/rules/main.lua:",
                "string.gsub: out of memory: the result would pass the module's memory limit of 256 MiB",
            ],
        );
    }
}

#[test]
fn the_log_is_bounded_per_step_and_per_line() {
    attack(
        "log_loop",
        &[
            "hostile/rules/main.lua:",
            "more than 1000 log lines in one step",
        ],
    );
    attack(
        "huge_log_line",
        &[
            "hostile/rules/main.lua:",
            "ctx:log argument 1: a string of 100000000 bytes is too long (at most 10000)",
        ],
    );
}

#[test]
fn a_ctx_function_names_the_argument_it_cannot_take() {
    attack(
        "dot_call",
        &[
            "hostile/rules/main.lua:",
            "call ctx:turn(…) with a colon, so that ctx is passed first",
        ],
    );
    attack(
        "number_for_id",
        &["ctx:zone: argument 1 (zone) must be a string, got integer"],
    );
    attack(
        "table_for_id",
        &["ctx:counter: argument 1 (id) must be a string, got table"],
    );
    // Bytes that are not UTF-8 are shown as replacement characters, not refused unread.
    attack("bad_utf8_id", &["unknown counter 'ok\u{fffd}'"]);
    attack(
        "bad_format",
        &[
            "ctx:log",
            "bad argument #2 to 'string.format' (number expected, got string)",
        ],
    );
}

#[test]
fn ctx_log_takes_numbers_and_a_format_with_its_values() {
    let mut session = lab();
    session
        .act("log_values", chancery_core::Value::Nil)
        .expect("logs");
    let lines: Vec<String> = session
        .log()
        .into_iter()
        .flat_map(|e| e.messages)
        .map(|m| m.text)
        .collect();
    let tail = &lines[lines.len() - 3..];
    assert_eq!(
        tail,
        ["42", "2.5", "Austria has 3 tokens (37.5 %), nil"],
        "{lines:?}"
    );
    // An integral float is taken where an integer is asked for.
    assert_eq!(session.table().counter(&"ok".into()), Ok(2));
}

#[test]
fn rawset_cannot_write_into_library_or_module_data() {
    attack(
        "rawset_string",
        &[
            "hostile/rules/main.lua:",
            "string is read-only (tried to set 'rep')",
        ],
    );
    attack(
        "rawset_data",
        &["card 'c' is read-only (tried to set 'name')"],
    );
}

#[test]
fn errors_lua_raises_without_a_position_are_given_one() {
    attack(
        "yield_at_top",
        &[
            "hostile/rules/main.lua:",
            ": attempt to yield from outside a coroutine",
        ],
    );
    attack(
        "c_stack_overflow",
        &["hostile/rules/main.lua:", "C stack overflow", "times)"],
    );
    attack(
        "error_with_table",
        &[
            "hostile/rules/main.lua:",
            "error() was given a table, not a message",
        ],
    );
    attack(
        "allocate",
        &[
            "hostile/rules/main.lua:",
            "out of memory: this function (or one it calls) tried to hold more than the module may use (at most 256 MiB in one VM, 512 MiB in all the VMs of a game",
        ],
    );
}

#[test]
fn a_module_test_warns_when_its_game_replays_differently() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("hostile"));
    std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
    std::fs::write(
        dir.join("tests/state.lua"),
        "test(\"counts after an undo\", function(t)\n  local g = t:game()\n  g:act(\"keep_count\")\n  g:undo()\n  g:act(\"keep_count\")\n  t:eq(g:counter(\"ok\"), 2)\nend)\n\ntest(\"plays cleanly\", function(t)\n  local g = t:game()\n  g:act(\"ok\")\n  t:eq(g:counter(\"ok\"), 1)\nend)\n",
    )
    .expect("write");
    let module = load(&dir);
    let report = chancery_core::devtools::testing::run_module_tests(module, None).expect("runs");
    assert_eq!(report.failures(), 0, "{:?}", report.results);
    let warned: Vec<&str> = report
        .results
        .iter()
        .filter(|r| !r.warnings.is_empty())
        .map(|r| r.name.as_str())
        .collect();
    // The count lives in an upvalue: undo replays the input in the same VM and counts
    // again, so the game shows 2 where a fresh replay of its one input shows 1.
    assert_eq!(warned, ["counts after an undo"]);
    let warning = &report.results[0].warnings[0];
    assert!(
        warning.contains("replays differently in a fresh VM from input 1 ('P: keep_count')"),
        "{warning}"
    );
}

#[test]
fn a_runaway_module_test_stops_within_the_rules_limits_unless_it_asks_for_more() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("hostile"));
    std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
    std::fs::write(
        dir.join("tests/spin.lua"),
        "test(\"spins\", function(t)\n  while true do end\nend)\n\ntest(\"counts far\", { instructions = 300000000, seconds = 60 }, function(t)\n  local n = 0\n  for i = 1, 20000000 do n = n + 1 end\n  t:eq(n, 20000000)\nend)\n",
    )
    .expect("write");
    let module = load(&dir);
    let started = Instant::now();
    let report = chancery_core::devtools::testing::run_module_tests(module, None).expect("runs");
    let spins = &report.results[0];
    let failure = spins.failure.as_deref().expect("the runaway test fails");
    assert!(
        failure.contains("tests/spin.lua:2:") && failure.contains(STOPPED),
        "{failure}"
    );
    assert!(
        report.results[1].failure.is_none(),
        "{:?}",
        report.results[1]
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_module_with_many_cards_is_not_held_to_the_module_s_budget_while_the_engine_builds_its_data() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("hostile"));
    let cards: Vec<String> = (0..20_000)
        .map(|i| format!("Card(id: \"c{i}\", name: \"Card {i}\")"))
        .collect();
    let table = std::fs::read_to_string(dir.join("data/table.ron")).expect("read");
    let table = table.replace(
        r#"cards: [Card(id: "c", name: "A card")],"#,
        &format!(
            r#"cards: [Card(id: "c", name: "A card"), {}],"#,
            cards.join(", ")
        ),
    );
    std::fs::write(dir.join("data/table.ron"), table).expect("write");
    let module = load(&dir);
    // A budget far below what building ctx.data for 20,000 cards takes: only module code
    // counts against it.
    let limits = chancery_core::script::Limits {
        instructions: 100_000,
        ..chancery_core::script::Limits::default()
    };
    let rules = chancery_core::LuaRules::new(module.clone(), limits)
        .map(|r| Box::new(r) as Box<dyn chancery_core::Rules>)
        .expect("the rules load");
    let mut session = Session::new(module, GameSpec::new("lab", 1), rules).expect("the lab starts");
    session
        .act("ok", chancery_core::Value::Nil)
        .expect("and plays");
}
