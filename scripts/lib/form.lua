-- Chancery library: forms. The figures a rule needs that only a person at the table has
-- (a battle's strengths, a province's output, a Corps' divisions) are asked one at a time,
-- each a choice or a number, so that every figure is an input the game replays, from the
-- app or an answers file. A private form keeps the figures entered so far in the private
-- state of the seat filling it in, never in the state's locals (which every seat reads):
-- the other seats learn nothing until the rules use them.
--   local form = include("@lib/form.lua")
--   form.define("raid", "Raid", function(ctx, values, data) return { {key = "rp", text = "RP", min = 0, max = 99} } end)
--   states.form = form.state
--   form.open(ctx, "raid", { seat = "UM", private = "" })   -- the caller's on_resume gets {form, values} or {form, cancelled}

local M = {}

-- Forms by name: each a title and the function that gives its fields.
local FORMS = {}

--- Declares form `name`: `title` begins each of its prompts; `fields(ctx, values, data)`
--- gives its fields, given the values entered so far and the data it was opened with; a
--- field is `{key, text, choices = {{arg, label}, ...}}` or `{key, text, min, max}`.
function M.define(name, title, fields)
  FORMS[name] = { title = title, fields = fields }
end

--- Opens form `name` on top of the current state (whose rules table must hold `M.state`
--- as the state `form`). `opts`: `seat`, who fills it in; `private`, the words the other
--- seats read instead of the figures (`""`: nothing at all), which keeps the figures in that
--- seat's private state; `data`, plain data handed to the fields; `cancel`, the words of
--- the button that gives up ("Cancel the <title>" if absent). The caller's `on_resume` gets
--- `{form = name, values = {key = value, ...}}`, or `{form = name, cancelled = true}`.
function M.open(ctx, name, opts)
  opts = opts or {}
  assert(FORMS[name], "no form named " .. tostring(name))
  assert(opts.private == nil or opts.seat, "a private form needs the seat that fills it in")
  ctx:call("form", { form = name, seat = opts.seat, private = opts.private, data = opts.data, cancel = opts.cancel, n = 0, values = {} })
end

-- The values entered so far: in the seat's private state for a private form.
local function values(ctx)
  local l = ctx.locals
  if l.private ~= nil then
    return ctx.private[l.seat].form_values or {}
  end
  return l.values
end

local function current(ctx)
  local f = FORMS[ctx.locals.form]
  local fields = f.fields(ctx, values(ctx), ctx.locals.data)
  return f, fields, fields[ctx.locals.n + 1]
end

M.state = {}

function M.state.prompt(ctx)
  local l = ctx.locals
  local f, fields, field = current(ctx)
  local actions = {}
  if field.choices then
    for _, choice in ipairs(field.choices) do
      actions[#actions + 1] = { name = "set", arg = choice[1], label = choice[2] }
    end
  else
    actions[#actions + 1] = { name = "set", min = field.min, max = field.max, label = field.text }
  end
  actions[#actions + 1] = { name = "cancel", label = l.cancel or ("Cancel the " .. f.title:lower()) }
  return {
    seat = l.seat,
    text = string.format("%s, %d of %d: %s", f.title, l.n + 1, #fields, field.text),
    actions = actions,
    private = l.private,
  }
end

local function close(ctx, result)
  if ctx.locals.private ~= nil then
    ctx.private[ctx.locals.seat].form_values = nil
  end
  ctx:pop(result)
end

function M.state.set(ctx, value)
  local l = ctx.locals
  local _, _, field = current(ctx)
  local v = values(ctx)
  v[field.key] = value
  l.n = l.n + 1
  -- The fields may depend on the values: the form ends when no field is left.
  if l.n >= #FORMS[l.form].fields(ctx, v, l.data) then
    close(ctx, { form = l.form, values = v })
    return
  end
  if l.private ~= nil then
    ctx.private[l.seat].form_values = v
  else
    l.values = v
  end
end

function M.state.cancel(ctx)
  close(ctx, { form = ctx.locals.form, cancelled = true })
end

return M
