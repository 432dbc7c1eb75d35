-- La Guerre de l'Empereur tests: playing through the set-up, the Seasons and the Winterphase.

local M = {}

M.FIXTURE = "tests/owner-fixture.ron"

--- A game of `scenario` past its bid (every bid 0, ties by the dice) and picks (each
--- bidder takes the first power left), at the Fall 1805 Turn Start, every treasury empty.
function M.started(t, scenario, seed, options)
  local g = t:game { scenario = scenario, seed = seed or 1, overlay = M.FIXTURE, options = options }
  for _, power in ipairs(g:vars().pcs) do
    g:act_as(power, "bid", 0)
  end
  while g:state() == "pick" do
    g:act("pick", g:prompt().actions[1].arg)
  end
  -- The tests count each treasury from empty: the fixture's initial money is a placeholder
  -- (the set-up's own test reads it).
  for _, power in ipairs(g:vars().pcs) do
    g:set_counter("gold." .. power, 0)
  end
  return g
end

--- Plays the rest of the current Combat Season: France draws (or, with `first`, goes
--- first); in each Player Turn `during(g, power)` runs first, if given; every player ends
--- his turn; the Mutual Build Phase.
--- Plays a power's Turn Preparation (4.7): no NPC roll, the event carried out.
function M.prepare(g)
  if g:state() == "preparation" then
    g:act("events")
  end
  if g:state() == "event" then
    g:act("applied")
  end
end

function M.season(g, during, first)
  M.no_cooperation(g)
  if g:state() == "turn_start" then
    g:act(first and "first" or "draw")
  end
  M.prepare(g)
  while g:state() == "player_turn" do
    local power = g:prompt().seat
    if during then
      during(g, power)
    end
    g:act("done")
    M.prepare(g)
  end
  for _, power in ipairs(g:vars().pcs) do
    g:act_as(power, "built")
  end
end

--- Plays a Winterphase: `w.tax`, `w.vp` and `w.buy` by power (0 where absent), `w.ports`
--- (the minor ports of trade closed, if the Continental System runs), `w.rolls` (by power,
--- {npc, die}) in the NPC Alliance Phase, `w.party` (by power, {answer, dice}) for a Peace
--- Party (else the penalty, on the engine's dice).
function M.winter(g, w)
  w = w or {}
  while g:state() == "tax" do
    g:act("tax", (w.tax or {})[g:prompt().seat] or 0)
  end
  while g:state() == "peace_party" do
    local seat = g:prompt().seat
    local answer = (w.party or {})[seat] or { "penalty" }
    g:act(answer[1], nil, answer[2])
  end
  while g:state() == "vp_collection" do
    g:act("vp", (w.vp or {})[g:prompt().seat] or 0)
  end
  if g:state() == "continental" then
    g:act("ports", w.ports or 0)
  end
  for _, power in ipairs(g:vars().pcs) do
    g:act_as(power, "buy", (w.buy or {})[power] or 0)
  end
  g:act("done")
  while g:state() == "npc_alliance" do
    local roll = (w.rolls or {})[g:prompt().seat]
    if roll then
      g:act("roll", roll[1], { roll[2] })
    else
      g:act("pass")
    end
  end
  g:act("done")
end

--- At a Turn Start, every alliance declares no Military Cooperation (4.61).
function M.no_cooperation(g)
  while g:state() == "turn_start" and g:prompt().actions[#g:prompt().actions].name == "no_cooperation" do
    g:act("no_cooperation")
  end
end

--- The power whose Player Turn it is (the last chit drawn: a coalition's head).
function M.current(g)
  local drawn = g:zone("drawn")
  return drawn[#drawn] and drawn[#drawn]:match("^chit%.(.+)$")
end

--- From a Turn Start or a Player Turn, plays the Season's turns (each ended at once) up to
--- `power`'s Player Turn proper (France goes first when it is `power`).
function M.to_turn(g, power)
  M.no_cooperation(g)
  if g:state() == "turn_start" then
    g:act(power == "FR" and "first" or "draw")
  end
  M.prepare(g)
  while g:state() == "player_turn" and M.current(g) ~= power do
    g:act("done")
    M.prepare(g)
  end
end

--- Everyone lets a declaration stand: every ask of the cancel window passed.
function M.stand(g)
  while g:state() == "cancel_window" do
    g:act("pass")
  end
end

--- `power` declares war on `target` in its turn, nobody trying to cancel it.
function M.declare(g, target)
  g:act("declare_war", target)
  M.stand(g)
end

--- A two-player game (with `options`) at France's first Player Turn proper, France going
--- first and at war with `target` (nobody cancels), physical dice from then on.
function M.french_war(t, target, options)
  local g = M.started(t, "two-player", 1, options)
  g:act("first")
  M.prepare(g)
  M.declare(g, target)
  g:set_dice("physical")
  return g
end

--- From the moving power's turn, with physical dice: a naval combat, its figures `values`
--- (the enemy, then the squadrons and modifiers), the dice given with the last.
function M.naval(g, values, dice)
  g:set_dice("physical")
  g:act("naval")
  for i, v in ipairs(values) do
    g:act("set", v, i == #values and dice or nil)
  end
end

--- Checks that the game's log holds `text` (showing the whole log when it does not).
function M.logged(t, g, text)
  local log = table.concat(g:log(), "\n")
  t:ok(log:find(text, 1, true), log)
end

--- Plays the rest of the Season and the Winterphase, in whose NPC Alliance Phase `power`
--- rolls `die` for `npc` and gains it (the test checks it).
function M.gains_npc(t, g, power, npc, die)
  M.season(g)
  M.winter(g, { rolls = { [power] = { npc, die } } })
  t:eq(g:vars().npc_ally[npc], power)
end

--- A whole year from a Spring Turn Start: three Seasons, then the Winterphase `w`.
function M.year(g, w, during)
  for _ = 1, 3 do
    M.season(g, during)
  end
  M.winter(g, w)
end

--- From the moving power's turn, a land battle against `power` with each side's figures
--- (`moving` and `other`: {divisions, cavalry, artillery, corps, tactical, edge}), the
--- Initiative dice given with the last figure.
function M.battle(g, power, moving, other, initiative)
  g:act("battle")
  g:act("set", power)
  local order = { "divisions", "cavalry", "artillery", "corps", "tactical", "edge" }
  local values = {}
  for _, side in ipairs({ moving, other }) do
    for _, key in ipairs(order) do
      if key == "edge" then
        values[#values + 1] = side.edge == true
      else
        values[#values + 1] = side[key] or 0
      end
    end
  end
  for i, v in ipairs(values) do
    g:act("set", v, i == #values and initiative or nil)
  end
end

return M
