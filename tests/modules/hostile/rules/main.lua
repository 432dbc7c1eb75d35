-- Hostile rules: every action but "ok" tries to break out of the sandbox or hang it.

local lab = {}

local names = {
  "ok", "spin", "spin_in_coroutine", "spin_in_pcall", "spin_in_nested_pcall",
  "spin_in_error_handler", "pattern", "gsub_pattern", "allocate", "grow_table",
  "use_io", "use_os", "use_load", "use_debug", "use_require", "dump", "random",
  "string_metatable", "write_data", "write_ctx", "set_global", "huge_sort",
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

return {
  setup = function(ctx)
    ctx:push("lab")
  end,
  states = { lab = lab },
}
