//! `ctx.vars` and `ctx.locals` are handed to a script a field at a time (filled as the
//! script reads them, compared and read back field by field), unless they are small (then
//! whole, at once). Every way a script can read or write them must see and store what a
//! whole copy would, both ways: a field set to nil stays nil, `pairs`, `next` and `rawget`
//! see every field, many fields at once, nested tables, locals popped mid-call, tables
//! handed on unread, a read-only hook that changes a field, and a table kept from an
//! earlier call.

use chancery_core::{GameSpec, Session, Value};
use chancery_tests::{copy_module, load, test_module};

/// Rules whose one state's actions each read or write `ctx.vars` one way.
const RULES: &str = r#"
-- Whether ctx.vars and the locals the rules hand on are large (filled a field at a time).
local BIG = false
local PAD = {}
for i = 1, BIG and 30 or 0 do
  PAD[i] = i
end

local lab = {}
local names = {
  "count", "clear", "by_pairs", "by_next", "by_rawget", "by_rawset", "many", "nested",
  "enter", "bad_key", "keep", "read_kept", "spoil", "visit", "self_ref", "meta", "listed",
}

-- A sub-state whose locals are a list (large when BIG).
function lab.listed(ctx)
  local list = { "a", "b" }
  for _, v in ipairs(PAD) do
    list[#list + 1] = v
  end
  ctx:call("counted", list)
end

-- Whether this call's ctx.vars and ctx.locals are filled a field at a time (their
-- metatable is hidden then; a table copied whole has none).
function lab.meta(ctx)
  ctx.vars.partly = getmetatable(ctx.vars) == false
end

function lab.prompt(ctx)
  local actions = {}
  for _, name in ipairs(names) do
    actions[#actions + 1] = { name = name }
  end
  if ctx.vars.spoiled then
    ctx.vars.n = 99
  end
  return { seat = "P", text = "Pick", actions = actions }
end

function lab.count(ctx)
  ctx.vars.n = (ctx.vars.n or 0) + 1
end

function lab.clear(ctx)
  assert(ctx.vars.gone == "here")
  ctx.vars.gone = nil
  ctx.vars.gone_now = ctx.vars.gone == nil
  ctx.vars.never = nil
end

function lab.by_pairs(ctx)
  local keys = {}
  for k in pairs(ctx.vars) do
    keys[#keys + 1] = k
  end
  table.sort(keys)
  ctx.vars.keys = table.concat(keys, ",")
end

function lab.by_next(ctx)
  ctx.vars.next_found = next(ctx.vars) ~= nil
end

function lab.by_rawget(ctx)
  ctx.vars.raw_gone = rawget(ctx.vars, "gone")
end

function lab.by_rawset(ctx)
  rawset(ctx.vars, "raw", 1)
  ctx.vars.n = ctx.vars.n + 100
end

function lab.many(ctx)
  for i = 1, 40 do
    ctx.vars["k" .. i] = i
  end
  ctx.vars.n_after_many = ctx.vars.n
  ctx.vars.k7 = nil
end

function lab.nested(ctx)
  ctx.vars.t.x = ctx.vars.t.x + 1
  ctx.vars.t.list[#ctx.vars.t.list + 1] = "c"
end

function lab.enter(ctx)
  ctx:call("inner", { a = 1, b = { c = 2 }, pad = BIG and PAD or nil })
end

function lab.on_resume(ctx, result)
  ctx.vars.resumed = result
end

function lab.bad_key(ctx)
  ctx.vars[1] = "one"
end

local kept = nil

function lab.keep(ctx)
  kept = ctx.vars
  ctx.vars.n = 5
end

function lab.read_kept(ctx)
  ctx.vars.kept_gone = kept.gone == nil
  ctx.vars.kept_n = kept.n
end

function lab.spoil(ctx)
  ctx.vars.spoiled = true
end

function lab.visit(ctx)
  ctx:call("room", { a = 1, b = { c = 2 }, pad = BIG and PAD or nil })
end

function lab.self_ref(ctx)
  ctx.vars.me = ctx.vars
end

-- A state whose prompt hands its locals on as an action's argument, and whose action
-- stores them in ctx.vars, without reading a field of them first.
local room = {}

function room.prompt(ctx)
  return { seat = "P", text = "In the room", actions = { { name = "stay", arg = ctx.locals }, { name = "leave" }, { name = "again" } } }
end

-- Hands its locals, unread, to a ctx function.
function room.again(ctx)
  ctx:replace("room", ctx.locals)
end

function room.stay(ctx)
  ctx.vars.room = ctx.locals
end

function room.leave(ctx)
  ctx:pop()
end

local counted = {}

function counted.run(ctx)
  local n = #ctx.locals
  ctx:pop({ n = n, first = ctx.locals[1], last = ctx.locals[n] })
end


local inner = {}

function inner.run(ctx)
  ctx.locals.a = ctx.locals.a + 10
  ctx.locals.b = nil
  ctx:pop(ctx.locals.a)
  ctx.locals.late = true
end

function inner.on_exit(ctx)
  ctx.vars.exit_saw = { a = ctx.locals.a, b_gone = ctx.locals.b == nil }
end

return {
  setup = function(ctx)
    ctx.vars.n = 0
    ctx.vars.gone = "here"
    ctx.vars.t = { x = 1, list = { "a", "b" } }
    ctx.vars.pad = BIG and PAD or nil
    ctx:push("lab")
  end,
  states = { lab = lab, inner = inner, room = room, counted = counted },
}
"#;

fn lab_with(big: bool) -> (tempfile::TempDir, Session) {
    let (scratch, dir) = copy_module(&test_module("hostile"));
    let rules = RULES.replace("local BIG = false", &format!("local BIG = {big}"));
    std::fs::write(dir.join("rules/main.lua"), rules).expect("the rules are written");
    let session =
        chancery_core::start_game(load(&dir), GameSpec::new("lab", 1)).expect("the lab starts");
    (scratch, session)
}

/// Runs `test` on the lab with small tables, then with large ones.
fn both(test: impl Fn(&mut Session)) {
    for big in [false, true] {
        let (_scratch, mut session) = lab_with(big);
        test(&mut session);
    }
}

/// The locals the lab's sub-states get, with the padding that makes them large.
fn handed(session: &Session) -> Value {
    let mut map: std::collections::BTreeMap<String, Value> = [
        ("a".to_owned(), Value::Int(1)),
        (
            "b".to_owned(),
            Value::Map([("c".to_owned(), Value::Int(2))].into()),
        ),
    ]
    .into();
    if let Some(pad) = padding(session) {
        map.insert("pad".to_owned(), pad);
    }
    Value::Map(map)
}

fn padding(session: &Session) -> Option<Value> {
    match var(session, "pad") {
        Value::Nil => None,
        pad => Some(pad),
    }
}

fn var(session: &Session, key: &str) -> Value {
    match &session.table().vars {
        Value::Map(map) => map.get(key).cloned().unwrap_or(Value::Nil),
        other => panic!("ctx.vars is not a map: {other:?}"),
    }
}

fn act(session: &mut Session, name: &str) {
    session
        .act(name, Value::Nil)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

#[test]
fn large_tables_are_filled_a_field_at_a_time_and_small_ones_copied_whole() {
    for big in [false, true] {
        let (_scratch, mut s) = lab_with(big);
        act(&mut s, "meta");
        assert_eq!(var(&s, "partly"), Value::Bool(big), "large: {big}");
    }
}

#[test]
fn fields_read_written_and_cleared_are_stored() {
    both(|s| {
        act(s, "count");
        act(s, "count");
        assert_eq!(var(s, "n"), Value::Int(2));
        act(s, "clear");
        assert_eq!(var(s, "gone"), Value::Nil, "a field set to nil is removed");
        assert_eq!(var(s, "gone_now"), Value::Bool(true), "and reads nil after");
        act(s, "nested");
        assert_eq!(
            var(s, "t"),
            Value::Map(
                [
                    ("x".to_owned(), Value::Int(2)),
                    (
                        "list".to_owned(),
                        Value::List(vec!["a".into(), "b".into(), "c".into()])
                    ),
                ]
                .into()
            )
        );
    });
}

#[test]
fn pairs_next_and_the_raw_functions_see_every_field() {
    both(|s| {
        act(s, "by_pairs");
        let keys = if padding(s).is_some() {
            "gone,n,pad,t"
        } else {
            "gone,n,t"
        };
        assert_eq!(var(s, "keys"), Value::from(keys));
        act(s, "by_next");
        assert_eq!(var(s, "next_found"), Value::Bool(true));
        act(s, "by_rawget");
        assert_eq!(var(s, "raw_gone"), Value::from("here"));
        act(s, "by_rawset");
        assert_eq!(var(s, "raw"), Value::Int(1));
        assert_eq!(var(s, "n"), Value::Int(100));
    });
}

#[test]
fn many_fields_at_once_are_all_stored() {
    both(|s| {
        act(s, "count");
        act(s, "many");
        assert_eq!(var(s, "n_after_many"), Value::Int(1));
        assert_eq!(var(s, "k40"), Value::Int(40));
        assert_eq!(var(s, "k7"), Value::Nil);
        assert_eq!(var(s, "gone"), Value::from("here"), "untouched fields stay");
    });
}

#[test]
fn locals_changed_before_a_pop_reach_on_exit_and_the_caller() {
    both(|s| {
        act(s, "enter");
        assert_eq!(var(s, "resumed"), Value::Int(11));
        assert_eq!(
            var(s, "exit_saw"),
            Value::Map(
                [
                    ("a".to_owned(), Value::Int(11)),
                    ("b_gone".to_owned(), Value::Bool(true)),
                ]
                .into()
            )
        );
    });
}

#[test]
fn a_key_that_is_not_text_is_refused_and_the_table_kept() {
    both(|s| {
        let before = s.table().vars.clone();
        let err = s
            .act("bad_key", Value::Nil)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("ctx.vars"), "{err}");
        assert_eq!(s.table().vars, before);
    });
}

#[test]
fn a_table_kept_from_an_earlier_call_is_plain_and_still() {
    both(|s| {
        act(s, "keep");
        act(s, "read_kept");
        // The kept table holds what the earlier call had: a small table all of it, a large
        // one what the call filled or set (n), nothing more.
        let partly = padding(s).is_some();
        assert_eq!(var(s, "kept_gone"), Value::Bool(partly));
        assert_eq!(var(s, "kept_n"), Value::Int(5));
    });
}

#[test]
fn a_prompt_that_changes_a_field_is_an_error() {
    both(|s| {
        act(s, "spoil");
        let err = match s.prompt() {
            Err(e) => e.to_string(),
            Ok(p) => panic!("the prompt changed ctx.vars and was taken: {p:?}"),
        };
        assert!(
            err.contains("changed ctx.vars, but it may only read them"),
            "{err}"
        );
    });
}

/// The argument of the room's "stay" action, as its prompt offers it.
fn offered_stay(session: &Session) -> Value {
    let prompt = session
        .prompt()
        .as_ref()
        .expect("a prompt")
        .clone()
        .expect("someone decides");
    prompt.asks[0]
        .actions
        .iter()
        .find(|a| a.name == "stay")
        .expect("stay is offered")
        .arg
        .clone()
}

#[test]
fn tables_handed_on_unread_are_read_whole() {
    both(|s| {
        act(s, "visit");
        let locals = handed(s);
        assert_eq!(offered_stay(s), locals, "a prompt's argument");
        act(s, "again");
        assert_eq!(offered_stay(s), locals, "a ctx function's argument");
        s.act("stay", locals.clone()).expect("stays");
        assert_eq!(var(s, "room"), locals, "a field of ctx.vars");
    });
}

#[test]
fn a_table_stored_in_itself_is_still_a_cycle() {
    both(|s| {
        let err = s
            .act("self_ref", Value::Nil)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("contains itself"), "{err}");
    });
}

#[test]
fn locals_that_are_a_list_are_read_whole() {
    both(|s| {
        act(s, "listed");
        let n = if padding(s).is_some() { 32 } else { 2 };
        let last = if n == 2 {
            Value::from("b")
        } else {
            Value::Int(30)
        };
        assert_eq!(
            var(s, "resumed"),
            Value::Map(
                [
                    ("n".to_owned(), Value::Int(n)),
                    ("first".to_owned(), Value::from("a")),
                    ("last".to_owned(), last),
                ]
                .into()
            )
        );
    });
}
