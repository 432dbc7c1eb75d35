-- Congress of Vienna: the named readings a game is set up with, declared with their words
-- and values in data/options.ron. Each is a rule the Playbook leaves open or lets the
-- players choose (a difficulty option), or a bot's reading of an ambiguous chart step, with
-- its default first; RULES-GAPS.md gives each its Playbook lines.
-- A game takes them as set-up options, e.g.
--   chancery sim modules/cov --scenario lutzen-bautzen --option lutzen_france.debate_table=as-printed
--   chancery new modules/cov --scenario clash-of-armies --option seating=solo-vs-french-bot --option solitaire.handicap=2

local options = {}

-- The named readings are the declared options whose key has a dot (group.reading); the
-- engine has refused any other key and any value an option does not list before the
-- set-up runs.
local function is_reading(key)
  return string.find(key, ".", 1, true) ~= nil
end

-- The named readings a game was set up with (those given; the others take their default),
-- for `ctx.vars.options`.
function options.given(ctx, given)
  local list = {}
  for _, key in ipairs(ctx.data.option_ids) do
    if is_reading(key) then
      list[key] = given[key] ~= nil and tostring(given[key]) or nil
    end
  end
  return list
end

-- The value of a named option in this game.
function options.get(ctx, key)
  local option = ctx.data.options[key]
  if option == nil or not is_reading(key) then
    error(string.format("no named option '%s'", tostring(key)), 0)
  end
  return (ctx.vars.options or {})[key] or option.default
end

-- The value of a named option in this game, in the words its declaration gives it ("France
-- fights"): what a reason says instead of the option's key.
function options.words(ctx, key)
  local value = options.get(ctx, key)
  return ctx.data.options[key].values[value] or value
end

return options
