-- Congress of Vienna: a question the rules ask a power (or every player) where the Playbook
-- leaves the players to decide (RULES-GAPS.md), the one procedure every phase calls for it:
-- `ctx:call("decide", {power, key, text, options, everyone?, chart?})` pops {key, choice}
-- with the caller's locals. Bots answer it by the question's key through `decide.answers`;
-- `chart = {n, why}` offers a power a bot plays the dice its chart rolls for the question
-- (rules/chartdice.lua).

local powers = include("rules/powers.lua")
local util = include("@lib/util.lua")
local chartdice = include("rules/chartdice.lua")

local decide = {}

decide.decide = {}

function decide.decide.prompt(ctx)
  local locals = ctx.locals
  local actions = {}
  for _, option in ipairs(locals.options) do
    actions[#actions + 1] = { name = "choose", arg = option.arg, label = option.label, place = option.place,
      space = option.space, box = option.box, piece = option.piece }
  end
  if locals.chart then
    chartdice.offer(ctx, actions, locals.power, locals.chart.n, locals.chart.why)
  end
  return {
    seat = (not locals.everyone) and powers.seat(ctx, locals.power) or nil,
    text = powers.as_power(ctx, locals.power) .. locals.text,
    actions = actions,
  }
end

function decide.decide.choose(ctx, arg)
  local result = util.copy(ctx.locals)
  result.choice = arg
  result.options = nil
  result.chart, result.chart_dice = nil, nil
  ctx:pop(result)
end

decide.decide.chart_roll = chartdice.roll

--- A step's `resume` (@lib/steps.lua) that keeps the answer to its question, the choice, in
--- the procedure's locals at `key`, for a later step to read.
function decide.keep(key)
  return function(ctx, result)
    ctx.locals[key] = result.choice
  end
end

-- A bot's answer to the question on top of the flow: `answers[key](ctx, actions, t)` for
-- the question's key, else `otherwise(ctx, actions, t)`. A bot registers its answers once:
--   bot.decide = decide.answers({ withdraw = withdraw, bonus = bonus }, first_option)
function decide.answers(answers, otherwise)
  return function(ctx, _, actions, t)
    local answer = answers[ctx.locals.key] or otherwise
    return answer(ctx, actions, t)
  end
end

return decide
