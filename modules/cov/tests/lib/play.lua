-- Helpers the module's tests share (not a test file: it declares no tests).

local util = include("@lib/util.lua")

local play = {}

-- Plays every decision with its first legal action (each seat of a shared decision in
-- turn) until `stop(g)` is true, or the game reaches the state named `stop`.
function play.to(g, stop)
  local done = type(stop) == "function" and stop or function(game)
    return game:state() == stop
  end
  for _ = 1, 3000 do
    if done(g) then
      return
    end
    local p = g:prompt()
    if p == nil then
      error("the game ended before the position the test waits for")
    end
    for _, ask in ipairs(p.asks) do
      if not util.contains(p.answered or {}, ask.seat) then
        local action = ask.actions[1]
        if ask.seat then
          g:act_as(ask.seat, action.name, action.arg)
        else
          g:act(action.name, action.arg)
        end
        break
      end
    end
  end
  error("the game did not reach the position the test waits for")
end

-- The cards of a zone that are not Leaders.
function play.non_leaders(g, zone)
  local leaders = { napoleon = true, alexander = true, metternich = true, castlereagh = true }
  local list = {}
  for _, card in ipairs(g:zone(zone)) do
    if not leaders[card] then
      list[#list + 1] = card
    end
  end
  return list
end

-- The log lines containing `text`.
function play.lines(g, text, seat)
  local found = {}
  for _, line in ipairs(g:log(seat)) do
    if string.find(line, text, 1, true) then
      found[#found + 1] = line
    end
  end
  return found
end

return play
