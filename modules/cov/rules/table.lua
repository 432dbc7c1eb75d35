-- Congress of Vienna, played by hand: until the turn procedure (Playbook 16) is automated,
-- the "table" state steps through the phases of each turn and the players move everything
-- else by hand, as on the physical board. It keeps the turn marker and the turn counter in
-- step, and ends the game with the VP as scores.

local PHASES = { "initial", "diplomacy", "government", "war", "end" }
local PHASE_NAMES = {
  initial = "Initial Phase",
  diplomacy = "Diplomacy Phase",
  government = "Government Phase",
  war = "War Phase",
  ["end"] = "End of Turn",
}

local tbl = {}

local function phase_index(phase)
  for i, name in ipairs(PHASES) do
    if name == phase then
      return i
    end
  end
  return 1
end

local function last_turn(ctx)
  return ctx.vars.last_turn
end

function tbl.prompt(ctx)
  local phase = ctx:phase()
  local turn = ctx:turn()
  local actions = {}
  if phase == "end" and last_turn(ctx) ~= nil and turn >= last_turn(ctx) then
    actions[#actions + 1] = { name = "end_game", label = "Score the game: it ends after this turn" }
  elseif phase == "end" then
    actions[#actions + 1] = { name = "next_phase", label = string.format("Begin turn %d", turn + 1) }
    actions[#actions + 1] = { name = "end_game", label = "End the game here and score it" }
  else
    local next_name = PHASE_NAMES[PHASES[phase_index(phase) + 1]]
    actions[#actions + 1] = { name = "next_phase", label = "Go on to the " .. next_name }
    actions[#actions + 1] = { name = "end_game", label = "End the game here and score it" }
  end
  return {
    text = string.format("Turn %d, %s: play it on the table by hand, then go on.", turn, PHASE_NAMES[phase] or phase),
    actions = actions,
  }
end

-- Next phase; after the End of Turn, the next turn's Initial Phase (and its turn marker).
function tbl.next_phase(ctx)
  local i = phase_index(ctx:phase())
  if i < #PHASES then
    ctx:set_phase(PHASES[i + 1])
    ctx:log(string.format("Turn %d: %s.", ctx:turn(), PHASE_NAMES[PHASES[i + 1]]))
    return
  end
  local turn = ctx:turn() + 1
  ctx:set_turn(turn)
  ctx:set_phase("initial")
  ctx:place("marker.turn", "turn", tostring(turn))
  ctx:log(string.format("Turn %d begins: Initial Phase.", turn))
end

-- End the game: the scores are the VP; the single highest total wins (a shared highest
-- total is left for the players to decide by the scenario's rules).
function tbl.end_game(ctx)
  local scores, best, winners = {}, nil, {}
  for _, power in ipairs(ctx:seats()) do
    local vp = ctx:counter("vp." .. power)
    scores[power] = vp
    if best == nil or vp > best then
      best, winners = vp, { power }
    elseif vp == best then
      winners[#winners + 1] = power
    end
  end
  if #winners > 1 then
    winners = {}
  end
  ctx:game_over({
    winners = winners,
    scores = scores,
    text = "Scored by victory points; apply the scenario's own conditions by hand where they differ.",
  })
end

return tbl
