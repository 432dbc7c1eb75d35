-- Napoleonic Wars Campaign tests: the umpire's moves, shared by the tests.

local M = {}

local FIXTURE = "tests/owner-fixture.ron"
local NATIONS = { "FR", "AU", "GB", "RU", "SP", "OT", "PR", "SW", "DK" }

--- Every nation's orders recorded as received.
function M.orders(g)
  for _, seat in ipairs(NATIONS) do
    g:act_as(seat, "received")
  end
end

--- A game of Fall 1805 (with the fixture and `options`) at turn 1's battles step.
function M.to_battles(t, options)
  local g = t:game { scenario = "fall-1805", seed = 1, overlay = FIXTURE, options = options }
  g:act("published")
  M.orders(g)
  for _ = 1, 3 do
    g:act("done")
  end
  return g
end

--- The umpire ends the turn and the next begins: its intel published, every nation's orders
--- received; the game waits at its step 3.
function M.next_turn(g)
  M.finish_turn(g)
  g:act("published")
  M.orders(g)
end

--- A game of Fall 1805 (with the fixture and `options`) played quietly to Winter 1806
--- (turn 2), at its step 3, where war is declared and alliances are made.
function M.winter(t, options)
  local g = M.to_battles(t, options)
  M.next_turn(g)
  return g
end

--- Winter 1806's battles step, each pair of `wars` ({{"FR", "AU"}, …}: the first declares
--- war on the second) at war.
function M.to_war(t, wars, options)
  local g = M.winter(t, options)
  for _, war in ipairs(wars) do
    M.form(g, "declare_war", war)
  end
  for _ = 1, 3 do
    g:act("done")
  end
  return g
end

--- Fills the umpire's form `name` with `values` in order.
function M.form(g, name, values)
  g:act(name)
  for _, v in ipairs(values) do
    g:act("set", v)
  end
end

--- Resolves a battle with the dice given: b = {kind, attacker, defender, cv = {a, d},
--- advantage, drm, arms = {{inf, cav, art}, {inf, cav, art}}, death_of_general} (men of war
--- and frigates at sea, no Death of a General, and the fleets' orders = {a, d}, both
--- "intercept" unless given). Returns the line of the battle the attacker is told, "" when
--- none is fought.
function M.battle(g, b, dice)
  g:set_dice("physical")
  local values = { b.kind, b.attacker, b.defender, b.cv[1], b.cv[2], b.advantage or "none", b.drm or 0 }
  for _, side in ipairs(b.arms) do
    for _, n in ipairs(side) do
      values[#values + 1] = n
    end
  end
  if b.kind ~= "sea" then
    values[#values + 1] = b.death_of_general or false
  else
    local orders = b.orders or { "intercept", "intercept" }
    values[#values + 1] = orders[1]
    values[#values + 1] = orders[2]
  end
  local before = #g:log(b.attacker)
  g:act("battle")
  for i, v in ipairs(values) do
    g:act("set", v, i == #values and dice or nil)
  end
  g:set_dice("digital")
  local lines = g:log(b.attacker)
  for i = #lines, before + 1, -1 do
    if lines[i]:find(" battle", 1, true) and lines[i]:find(": odds ", 1, true) then
      return lines[i]
    end
  end
  return ""
end

--- Resolves the battle `b` with `dice` (as `battle`) and checks that the line the attacker
--- is told holds each of `texts` (showing the line when it does not); returns the line.
function M.fought(t, g, b, dice, texts)
  local told = M.battle(g, b, dice)
  for _, text in ipairs(texts) do
    t:ok(told:find(text, 1, true), told)
  end
  return told
end

--- Whether `seat` was told a line holding `text`.
function M.told(g, seat, text)
  for _, line in ipairs(g:log(seat)) do
    if line:find(text, 1, true) then
      return true
    end
  end
  return false
end

--- The umpire ends the turn: every remaining step done (the event rolled).
function M.finish_turn(g)
  for _ = 1, 12 do
    local p = g:prompt()
    if p == nil or p.state ~= "steps" then
      return
    end
    local legal = table.concat(g:legal(), " ")
    if legal:find("event", 1, true) and not legal:find("done", 1, true) then
      g:act("event")
    else
      g:act("done")
    end
  end
end

return M
