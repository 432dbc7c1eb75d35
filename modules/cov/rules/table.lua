-- Congress of Vienna, played by hand: until the rest of the turn procedure (Playbook 16) is
-- automated, the "table" state steps through the Government Phase, the War Phase and the
-- End of Turn, and the players move everything by hand, as on the physical board. It
-- keeps the turn marker and the turn counter in step, and ends the game with the VP as
-- scores.

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
  if ctx.locals.automated then
    -- The rules play the new turn's Initial and Diplomacy Phases.
    ctx:pop({})
  end
end

-- Lützen & Bautzen (18.4.3): with one or two players France wins with more VP than both
-- Russia and Britain, the Allies win when France has fewer than both, anything else is a
-- draw; with three players the most VP wins.
local function lutzen_result(ctx, scores)
  if ctx.vars.seating == "three-players" then
    return nil
  end
  local fr, ru, br = scores.FR, scores.RU, scores.BR
  if fr > ru and fr > br then
    return { "FR" }, "France has more VP than Russia and than Britain (18.4.3)."
  elseif fr < ru and fr < br then
    return { "RU", "BR" }, "France has fewer VP than Russia and than Britain: the Allies win (18.4.3)."
  end
  return {}, "France has neither more VP than both Allies nor fewer than both: a draw (18.4.3)."
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
  local text = "Scored by victory points; apply the scenario's own conditions by hand where they differ."
  if ctx.vars.lutzen then
    local lw, why = lutzen_result(ctx, scores)
    if lw then
      winners, text = lw, why
    end
  end
  ctx:game_over({ winners = winners, scores = scores, text = text })
end

return tbl
