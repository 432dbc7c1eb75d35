-- Napoleonic Wars Campaign: the umpire's forms. A battle, a raid or a conversion needs
-- figures only the umpire has (combat values, units present, a province's RP); a form asks
-- for them one at a time, each a choice or a number, so that every figure is an input the
-- game replays, from the app or an answers file. The form's state returns the values to
-- the state that called it, which carries the action out.

local form = {}

-- Forms by name: each a title and the fields it asks, given the values so far (a field is
-- {key, text, choices = {{arg, label}, ...}} or {key, text, min, max}).
form.FORMS = {}

--- Declares a form.
function form.define(name, title, fields)
  form.FORMS[name] = { title = title, fields = fields }
end

--- Opens form `name` on top of the current state.
function form.open(ctx, name)
  ctx:call("form", { form = name, values = {}, n = 0 })
end

form.state = {}

local function current(ctx)
  local f = form.FORMS[ctx.locals.form]
  local fields = f.fields(ctx, ctx.locals.values)
  return f, fields, fields[ctx.locals.n + 1]
end

function form.state.prompt(ctx)
  local f, fields, field = current(ctx)
  local actions = {}
  if field.choices then
    for _, choice in ipairs(field.choices) do
      actions[#actions + 1] = { name = "set", arg = choice[1], label = choice[2] }
    end
  else
    actions[#actions + 1] = { name = "set", min = field.min, max = field.max, label = field.text }
  end
  actions[#actions + 1] = { name = "cancel", label = "Cancel the " .. f.title:lower() }
  -- The umpire's figures are the umpire's: the rules tell each nation what it may learn.
  return {
    seat = ctx.locals.seat or "UM",
    text = string.format("%s, %d of %d: %s", f.title, ctx.locals.n + 1, #fields, field.text),
    actions = actions,
    private = "",
  }
end

function form.state.set(ctx, value)
  local _, fields, field = current(ctx)
  ctx.locals.values[field.key] = value
  ctx.locals.n = ctx.locals.n + 1
  if ctx.locals.n >= #fields then
    ctx:pop({ form = ctx.locals.form, values = ctx.locals.values })
  end
end

function form.state.cancel(ctx)
  ctx:pop({ form = ctx.locals.form, cancelled = true })
end

return form
