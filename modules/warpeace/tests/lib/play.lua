-- War and Peace tests: playing through the months.

local util = include("@lib/util.lua")

local M = {}

M.FIXTURE = "tests/owner-fixture.ron"

--- A game of `scenario` under the fixture, at its first decision.
function M.game(t, scenario, seed, options)
  return t:game { scenario = scenario or "two-player", seed = seed or 1, overlay = M.FIXTURE, options = options }
end

--- Answers a form's fields in order (`values`; the last with `dice`, if given).
function M.fill(g, values, dice)
  for i, v in ipairs(values) do
    g:act("set", v, i == #values and dice or nil)
  end
end

--- The passive answer to the decision now: a phase over, a production with every city held
--- and nothing bought, no announcement change, no Alliance roll, no minor state producing.
--- Returns false when the game is over.
function M.pass(g)
  local state = g:state()
  local legal = g:legal()
  if g:prompt() == nil then
    return false
  elseif state == "form" then
    g:act("cancel")
  elseif util.contains(legal, "production") then
    g:act("production")
    while g:state() == "form" do
      local action = g:prompt().actions[1]
      g:act("set", action.max or action.arg)
    end
  elseif state == "alliance_phase" then
    g:act(legal[1]:match("^announce") and legal[1]:match("^(%S+)") or "no_roll", legal[1]:match("^announce (%S+)"))
  elseif util.contains(legal, "done") then
    g:act("done")
  else
    g:act(legal[1])
  end
  return true
end

--- Plays passively until the turn is `turn` (its first decision) or the game ends.
function M.to_turn(g, turn)
  while g:turn() < turn and M.pass(g) do
  end
end

--- Plays passively until `reached(g, prompt)` holds; whether it did (not: the game ended).
function M.play_until(g, reached)
  for _ = 1, 2000 do
    local p = g:prompt()
    if p and reached(g, p) then
      return true
    end
    if not M.pass(g) then
      return false
    end
  end
  return false
end

--- Plays passively until the state `state` (with `seat` deciding, if given) is reached.
function M.to_state(g, state, seat)
  return M.play_until(g, function(_, p)
    return g:state() == state and (seat == nil or p.seat == seat)
  end)
end

--- A two-player game (with `options`) played passively to `seat`'s decision in `state`,
--- which the test checks (`where`: the words of its failure, "France's Naval Phase").
function M.at(t, state, seat, where, options)
  local g = M.game(t, "two-player", 1, options)
  t:ok(M.to_state(g, state, seat), where)
  return g
end

--- A two-player game (with `options`) at `seat`'s Naval Phase of September 1805, with
--- physical dice, its naval combat begun: the form of its figures waits.
function M.naval_combat(t, seat, options)
  local g = M.at(t, "phase", seat, seat == "FR" and "France's Naval Phase" or "England's Naval Phase", options)
  g:set_dice("physical")
  g:act("naval_combat")
  return g
end

--- The game's log as one text, a line each.
function M.log(g)
  return table.concat(g:log(), "\n")
end

--- Checks that the game's log holds `text` (showing the whole log when it does not).
function M.logged(t, g, text)
  local log = M.log(g)
  t:ok(log:find(text, 1, true), log)
end

--- Plays passively until a decision whose prompt text contains `words`.
function M.to_text(g, words)
  return M.play_until(g, function(_, p)
    return p.text:find(words, 1, true) ~= nil
  end)
end

--- At a state's Reinforcement Phase: its production (`values`: the form's answers) with the
--- production die `die` (physical dice for that roll only).
function M.produce(g, values, die)
  g:set_dice("physical")
  g:act("production")
  M.fill(g, values, { die })
  g:set_dice("digital")
end

--- A two-player game played passively to the Reinforcement Phase named `phase` ("France's
--- Reinforcement Phase"), which the test checks, and its production made (as `produce`).
function M.produced(t, phase, values, die)
  local g = M.game(t, "two-player")
  t:ok(M.to_text(g, phase), phase)
  M.produce(g, values, die)
  return g
end

--- At a Reinforcement Phase's purchases: buys `n` of `kind` (in `city`, for land units).
function M.buy(g, kind, n, city)
  g:act("buy")
  g:act("set", kind)
  g:act("set", n)
  if city then
    g:act("set", city)
  end
end

return M
