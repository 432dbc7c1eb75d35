-- Congress of Vienna: the dice a Playbook bot's chart rolls (the debate roll of 20.7.b and
-- 21.6.2, the withdrawal die of 21.10.1), rolled by the rules. A bot picks among the legal
-- actions and cannot roll, so a decision of a power the seating gives to a bot offers the
-- action "chart_roll" once per power: the bot takes it when its chart needs a die, the
-- rules roll it with ctx:roll (logged, replayed, given by a test as `g:act("chart_roll",
-- arg, {3})`, and asked of the person at the table with physical dice), and the bot, asked
-- again, reads the roll with `chartdice.rolled` and decides. A person never needs it.

local powers = include("rules/powers.lua")
local solitaire = include("rules/solitaire.lua")

local chartdice = {}

-- The action that rolls `n` dice for `power`'s chart (`why`: the chart's table or step), or
-- nil when no bot plays the power or its dice are rolled already in this decision.
function chartdice.action(ctx, power, n, why)
  if not solitaire.bot_power(ctx, power) or chartdice.rolled(ctx, power) ~= nil then
    return nil
  end
  return { name = "chart_roll", arg = { power = power, n = n, why = why },
    label = string.format("Roll %dd6 for %s chart (%s)", n, powers.possessive(powers.name(ctx, power)), why) }
end

-- Appends the action for `power`, if it is offered, to `actions`.
function chartdice.offer(ctx, actions, power, n, why)
  local action = chartdice.action(ctx, power, n, why)
  if action then
    actions[#actions + 1] = action
  end
end

-- The handler of "chart_roll" for any state that offers it: rolls the dice and keeps their
-- total in the decision's locals, by power.
function chartdice.roll(ctx, arg)
  if arg == nil or ctx.data.seats[arg.power] == nil or not solitaire.bot_power(ctx, arg.power) then
    error("chart_roll: no bot plays that power", 0)
  end
  local total = 0
  for _ = 1, arg.n do
    total = total + ctx:roll(6, string.format("%s chart (%s)", powers.possessive(powers.name(ctx, arg.power)), arg.why))
  end
  ctx.locals.chart_dice = ctx.locals.chart_dice or {}
  ctx.locals.chart_dice[arg.power] = total
end

-- The total `power`'s chart rolled in this decision, or nil (for the bots).
function chartdice.rolled(ctx, power)
  return (ctx.locals.chart_dice or {})[power]
end

return chartdice
