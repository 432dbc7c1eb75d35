-- Hostile rules: every action but "ok" tries to break out of the sandbox or hang it.

local lab = {}

local names = {
  "ok", "spin", "spin_in_coroutine", "spin_in_pcall", "spin_in_nested_pcall",
  "spin_in_error_handler", "pattern", "gsub_pattern", "allocate", "grow_table",
  "use_io", "use_os", "use_load", "use_debug", "use_require", "dump", "random",
  "string_metatable", "write_data", "write_ctx", "replace_vars", "set_global", "huge_sort",
  "hold_function_in_vars", "recurse", "spin_in_finalizer",
}

function lab.prompt(ctx)
  local actions = {}
  for _, name in ipairs(names) do
    actions[#actions + 1] = { name = name }
  end
  return { seat = "P", text = "Pick an attack", actions = actions }
end

function lab.ok(ctx)
  ctx:add_counter("ok", 1)
end

function lab.spin(ctx)
  while true do end
end

function lab.spin_in_coroutine(ctx)
  local co = coroutine.create(function()
    while true do end
  end)
  coroutine.resume(co)
  while true do
    coroutine.resume(coroutine.create(function() while true do end end))
  end
end

function lab.spin_in_pcall(ctx)
  while true do
    pcall(function()
      while true do end
    end)
  end
end

function lab.spin_in_nested_pcall(ctx)
  local function dig(n)
    if n == 0 then
      while true do end
    end
    while true do
      pcall(dig, n - 1)
    end
  end
  dig(5)
end

function lab.spin_in_error_handler(ctx)
  while true do
    xpcall(function() while true do end end, function() while true do end end)
  end
end

function lab.pattern(ctx)
  return string.rep("a", 400):find(".-.-.-b")
end

function lab.gsub_pattern(ctx)
  return (string.rep("a", 300)):gsub("(.-)(.-)(.-)x", "%1")
end

function lab.allocate(ctx)
  local s = string.rep("x", 1024 * 1024 * 1024)
  return #s
end

function lab.grow_table(ctx)
  local t = {}
  local i = 0
  while true do
    i = i + 1
    t[i] = string.rep(string.rep("x", 1024), 1024) .. i
  end
end

function lab.use_io(ctx)
  return io.open("/etc/passwd")
end

function lab.use_os(ctx)
  return os.execute("true")
end

function lab.use_load(ctx)
  return load("return 1")()
end

function lab.use_debug(ctx)
  return debug.getinfo(1)
end

function lab.use_require(ctx)
  return require("os")
end

function lab.dump(ctx)
  return string.dump(lab.ok)
end

function lab.random(ctx)
  return math.random(6)
end

function lab.string_metatable(ctx)
  getmetatable("").__index.rep = nil
end

function lab.write_data(ctx)
  ctx.data.cards.c.name = "changed"
end

function lab.write_ctx(ctx)
  ctx.counter = nil
end

function lab.set_global(ctx)
  leaked = true
end

function lab.huge_sort(ctx)
  local t = {}
  for i = 1, 2000000 do
    t[i] = -i
  end
  table.sort(t)
end

function lab.hold_function_in_vars(ctx)
  ctx.vars.f = function() end
end

function lab.recurse(ctx)
  local function f(n)
    return f(n + 1) + 1
  end
  return f(1)
end

function lab.spin_in_finalizer(ctx)
  setmetatable({}, { __gc = function() while true do end end })
end

-- Later attacks: values too large or cyclic to store, memory built outside Lua, unbounded
-- logs, writes into read-only tables, errors that carry no position.
for _, name in ipairs({
  "shared_vars", "cyclic_vars", "nan_vars", "gsub_table_memory", "gsub_function_memory",
  "gsub_template_memory", "log_loop", "huge_log_line", "rawset_string", "rawset_data",
  "yield_at_top", "c_stack_overflow", "error_with_table", "keep_count",
}) do
  names[#names + 1] = name
end

-- A count kept outside ctx, in the module's own upvalue: undo and replays lose it.
local count = 0

function lab.shared_vars(ctx)
  local t = {}
  for i = 1, 60 do
    t = { a = t, b = t }
  end
  ctx.vars.shared = t
end

function lab.cyclic_vars(ctx)
  local t = {}
  t.again = t
  ctx.vars.cycle = t
end

function lab.nan_vars(ctx)
  ctx.vars.nan = 0 / 0
end

function lab.gsub_table_memory(ctx)
  return string.rep("a", 2000):gsub("a", { a = string.rep("x", 100000000) })
end

function lab.gsub_function_memory(ctx)
  local big = string.rep("x", 100000000)
  return string.rep("a", 2000):gsub("a", function() return big end)
end

function lab.gsub_template_memory(ctx)
  local template = string.rep("%0", 1000000)
  return string.rep("a", 1000):gsub("a+", template)
end

function lab.log_loop(ctx)
  while true do
    ctx:log(string.rep("x", 1000))
  end
end

function lab.huge_log_line(ctx)
  ctx:log(string.rep("x", 100000000))
end

function lab.rawset_string(ctx)
  rawset(string, "rep", function() return "changed" end)
end

function lab.rawset_data(ctx)
  rawset(ctx.data.cards.c, "name", "changed")
end

function lab.yield_at_top(ctx)
  coroutine.yield()
end

function lab.c_stack_overflow(ctx)
  local t = setmetatable({}, {})
  getmetatable(t).__index = function(self, k) return self[k] end
  return t.x
end

function lab.error_with_table(ctx)
  error({ code = 1 })
end

function lab.keep_count(ctx)
  count = count + 1
  ctx:add_counter("ok", count)
end

-- Arguments a ctx function cannot take, and one it can: numbers, a format and its values.
for _, name in ipairs({ "dot_call", "number_for_id", "table_for_id", "bad_utf8_id", "bad_format", "log_values" }) do
  names[#names + 1] = name
end

function lab.dot_call(ctx)
  return ctx.turn()
end

function lab.number_for_id(ctx)
  return ctx:zone(12)
end

function lab.table_for_id(ctx)
  return ctx:counter({})
end

function lab.bad_utf8_id(ctx)
  return ctx:counter("ok\xff")
end

function lab.bad_format(ctx)
  ctx:log("%d tokens", "five")
end

function lab.log_values(ctx)
  ctx:log(42)
  ctx:log(2.5)
  ctx:log("%s has %d tokens (%.1f %%), %s", "Austria", 3, 37.5, tostring(nil))
  ctx:add_counter("ok", 2.0)
end

-- After a first read, which ctx keeps for the rest of the call, setting it is still refused.
function lab.replace_vars(ctx)
  local _ = ctx.vars.x
  ctx.vars = { x = 1 }
end

return {
  setup = function(ctx)
    ctx:push("lab")
  end,
  states = { lab = lab },
}
