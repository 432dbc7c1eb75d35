-- Testbed bot "simple": plays (or wagers) its highest known card; otherwise passes. In an
-- objection it rolls its own die and reads its chart, kept as data (table objection_chart):
-- it objects on a 6. A face the chart does not give yet (5) counts as no objection.

local flowchart = include("@lib/flowchart.lua")

local function highest(ctx, actions, name)
  return flowchart.best(actions, function(action)
    if action.name == name and ctx:known("card", action.card, "value") then
      return ctx.data.cards[action.card].fields.value
    end
    return nil
  end)
end

return function(ctx, seat, actions)
  local t = flowchart.trace()
  if actions[1].name == "commit" then
    local best = highest(ctx, actions, "commit")
    local favour = ctx.private[seat].favour or 0
    t:step("1. My favour adds %d to whatever I wager.", favour)
    return t:choose(best or 1, "2. Wager %s, the highest.", actions[best or 1].label)
  end
  if actions[1].name == "object" then
    local die = ctx:random(6, "the objection die")
    local key = tostring(die)
    local object = ctx:known("table", "objection_chart", key) and ctx.data.tables.objection_chart[key]
    -- The row as the chart's step names it ("3.1, die 6"), which coverage counts.
    local row = ctx:chart_row("objection_chart", key)
    if object then
      return t:choose(1, "%s: object.", row)
    end
    local pass = flowchart.first(actions, function(a) return a.name == "pass" end)
    return t:choose(pass, "%s: pass.", row)
  end
  local best = highest(ctx, actions, "play")
  if t:ask("1. Is there a card with a known value to play?", best ~= nil) then
    return t:choose(best, "2. Play %s, the highest.", actions[best].label)
  end
  local pass = flowchart.first(actions, function(a) return a.name == "pass" end)
  return t:choose(pass, "2. Pass.")
end
