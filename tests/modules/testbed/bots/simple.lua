-- Testbed bot "simple": plays its highest known card; otherwise passes.

local flowchart = include("@lib/flowchart.lua")

return function(ctx, seat, actions)
  local t = flowchart.trace()
  local best = flowchart.best(actions, function(action)
    if action.name == "play" and ctx:known("card", action.card, "value") then
      return ctx.data.cards[action.card].fields.value
    end
    return nil
  end)
  if t:ask("1. Is there a card with a known value to play?", best ~= nil) then
    return t:choose(best, "2. Play %s, the highest.", actions[best].label)
  end
  local pass = flowchart.first(actions, function(a) return a.name == "pass" end)
  return t:choose(pass, "2. Pass.")
end
