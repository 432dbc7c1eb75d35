-- Chancery library: procedures as declared steps. An automatic state lists its steps in
-- the order the rules give them; a step may run once for each of a list (the seats in an
-- order the rules give: clockwise from a seat, by a track), pass by an item that no longer
-- takes part, and call a sub-procedure whose result it then uses. Where the procedure
-- stands is plain data in the state's locals (`step`, `items`, `at`, `where`), so saves,
-- undo, replay and hot reload need nothing more. Usage:
--   local steps = include("@lib/steps.lua")
--   states.muster = steps.procedure("Muster", {
--     { name = "1. Levy", each = function(ctx) return steps.from(ctx:seats(), "B") end,
--       run = function(ctx, seat) return steps.call("levy", { seat = seat }) end,
--       resume = function(ctx, levied) ctx:add_units("pool", "inf", levied) end },
--     { name = "2. Review", run = function(ctx) ctx:log("Reviewed.") end },
--   })

local M = {}

--- A call of the sub-procedure `state` with `locals`, for a step's `run` to return: the
--- procedure waits for it, then the step's `resume(ctx, result, item)` gets what it pops.
--- (A step never moves the flow itself; it returns this.)
function M.call(state, locals)
  return { call = state, locals = locals or {} }
end

--- What a step's `run` returns when it has ended the procedure itself (it ended the game
--- with `ctx:game_over`, say): no later step runs, and the procedure does not pop.
function M.stop()
  return { stop = true }
end

--- A step's `each` that runs it for the items of the list in the state's locals at `key`
--- (`each = steps.listed("allies")` for `ctx.locals.allies`).
function M.listed(key)
  return function(ctx)
    return ctx.locals[key]
  end
end

--- `list` in order from `first`, wrapping around (clockwise from a seat): {A, B, C, D} from
--- C is {C, D, A, B}. A `first` not in the list leaves the order as it is.
function M.from(list, first)
  local start = 1
  for i, item in ipairs(list) do
    if item == first then
      start = i
    end
  end
  local out = {}
  for i = 0, #list - 1 do
    out[#out + 1] = list[(start - 1 + i) % #list + 1]
  end
  return out
end

--- `list` ordered by `key(item)`, highest first; items with equal keys keep the list's
--- order (so a tie order is the list's own).
function M.by(list, key)
  local ranked = {}
  for i, item in ipairs(list) do
    ranked[i] = { item = item, key = key(item), i = i }
  end
  table.sort(ranked, function(a, b)
    if a.key ~= b.key then
      return a.key > b.key
    end
    return a.i < b.i
  end)
  local out = {}
  for i, entry in ipairs(ranked) do
    out[i] = entry.item
  end
  return out
end

--- Where the procedure on top of the flow stands, in words ("Muster, 1. Levy, Beta"), for
--- logs and a bot's reasons; nil outside a procedure.
function M.where(ctx)
  return ctx.locals.where
end

-- The step `step` for `item` in words: the procedure's title, the step's name, the item.
local function words(ctx, title, step, item)
  local text = title .. ", " .. step.name
  if item ~= nil then
    local name = step.label and step.label(ctx, item) or tostring(item)
    text = text .. ", " .. name
  end
  return text
end

-- Moves `l` (the procedure's locals) past the item or step it stands at.
local function advance(l)
  if l.items ~= nil then
    l.at = l.at + 1
    if l.at <= #l.items then
      return
    end
  end
  l.step, l.items, l.at = l.step + 1, nil, nil
end

-- What a step and a procedure's list may hold (anything else is a misspelling).
local STEP_KEYS = { name = "string", run = "function", each = "function", skip = "function", label = "function",
  resume = "function", calls = "table" }
local LIST_KEYS = { again = "boolean", finish = "function" }

-- Checks a procedure's declaration as the module loads, so that a misspelt key or a step
-- without its name or work is an error at the line that declares it (level 4: the module's
-- call of `steps.procedure`).
local function check(title, list)
  local function fail(what)
    error(string.format("steps.procedure '%s': %s", tostring(title), what), 4)
  end
  if type(title) ~= "string" then
    fail("its title must be a string")
  end
  if type(list) ~= "table" then
    fail("its steps must be a list")
  end
  for key, value in pairs(list) do
    if type(key) == "number" then
      if math.type(key) ~= "integer" or key < 1 or key > #list then
        fail(string.format("step %s is not in the list's order (1 to %d)", tostring(key), #list))
      end
    elseif LIST_KEYS[key] == nil then
      fail(string.format("unknown key '%s' beside its steps (a list may hold again, finish)", tostring(key)))
    elseif type(value) ~= LIST_KEYS[key] then
      fail(string.format("'%s' must be a %s", key, LIST_KEYS[key]))
    end
  end
  for i, step in ipairs(list) do
    local at = string.format("step %d", i)
    if type(step) ~= "table" then
      fail(at .. " must be a table")
    end
    if type(step.name) == "string" then
      at = string.format("step %d ('%s')", i, step.name)
    end
    if type(step.calls) == "string" then
      step.calls = { step.calls }
    end
    for key, value in pairs(step) do
      local want = STEP_KEYS[key]
      if want == nil then
        fail(string.format("%s: unknown key '%s' (a step has name, run, each, skip, label, resume, calls)", at,
          tostring(key)))
      elseif type(value) ~= want then
        fail(string.format("%s: '%s' must be a %s, not a %s", at, key, key == "calls" and "state's name or a list of them"
          or want, type(value)))
      end
    end
    for _, called in pairs(step.calls or {}) do
      if type(called) ~= "string" then
        fail(string.format("%s: 'calls' must name states, not hold a %s", at, type(called)))
      end
    end
    if step.name == nil then
      fail(at .. " has no name")
    end
    if step.run == nil then
      fail(at .. " has no run")
    end
  end
end

-- A sub-procedure a step returned to call: it must be one its `calls` names, so that the
-- outline drawn from the declarations (`chancery check --outline`) is the one that runs.
local function checked_call(title, step, out)
  for _, called in ipairs(step.calls or {}) do
    if called == out.call then
      return out
    end
  end
  error(string.format("steps.procedure '%s', step '%s' calls the state '%s', which its 'calls' does not name "
    .. "(it names: %s): add it to the step's calls", title, step.name, tostring(out.call),
    step.calls and #step.calls > 0 and table.concat(step.calls, ", ") or "none"), 0)
end

--- An automatic state that runs `list`'s steps in order, then pops (handing back
--- `list.finish(ctx)`, if the list has a `finish`), or with `again = true` in the list
--- starts over from the first (a cycle, as the phases of a turn). A step is a table: `name` (what
--- `steps.where` says, for logs and reasons; the state's locals show it too), `run(ctx, item)` (its work; it returns `steps.call(…)` to run
--- a sub-procedure), and optionally `each(ctx)` (the items to run it for, in order, worked
--- out when the step begins), `skip(ctx, item)` (true: pass this item by when its turn
--- comes, as a power that has left the game), `label(ctx, item)` (the item in words) and
--- `resume(ctx, result, item)` (what the sub-procedure it called handed back; it may return
--- `steps.call(…)` again for a further question, whose answer comes to it in turn), and
--- `calls` (the states its `run` and `resume` may call, a name or a list: a step that calls
--- one it does not name stops with an error; the module's outline draws them).
function M.procedure(title, list)
  check(title, list)
  -- The declaration, for the engine's outline of the module's procedures (read at load
  -- through the metatable, so the state's table holds only its hooks).
  local state = setmetatable({}, { __index = { __outline = { title = title, again = list.again == true,
    steps = list } } })

  function state.run(ctx)
    local l = ctx.locals
    l.step = l.step or 1
    while true do
      local step = list[l.step]
      if step == nil and list.again and #list > 0 then
        -- A cycle (a turn of phases): after the last step, the first again.
        l.step, step = 1, list[1]
      elseif step == nil then
        l.where = nil
        return ctx:pop(list.finish and list.finish(ctx) or nil)
      end
      if step.each ~= nil and l.items == nil then
        l.items, l.at = step.each(ctx) or {}, 1
      end
      local item = l.items and l.items[l.at]
      if step.each ~= nil and item == nil then
        advance(l)
      elseif item ~= nil and step.skip ~= nil and step.skip(ctx, item) then
        advance(l)
      else
        l.where = words(ctx, title, step, item)
        local out = step.run and step.run(ctx, item)
        if type(out) == "table" and out.call ~= nil then
          checked_call(title, step, out)
          l.waiting = true
          return ctx:call(out.call, out.locals)
        elseif type(out) == "table" and out.stop then
          return
        end
        advance(l)
      end
    end
  end

  function state.on_resume(ctx, result)
    local l = ctx.locals
    if not l.waiting then
      return
    end
    l.waiting = nil
    local step = list[l.step]
    local item = l.items and l.items[l.at]
    local out = step ~= nil and step.resume ~= nil and step.resume(ctx, result, item)
    if type(out) == "table" and out.call ~= nil then
      -- A further question for the same step and item: its answer comes to resume too.
      checked_call(title, step, out)
      l.waiting = true
      return ctx:call(out.call, out.locals)
    end
    advance(l)
  end

  return state
end

return M
