-- Congress of Vienna: the turn (Playbook 16): the Initial Phase, the Diplomacy Phase, the
-- Government Phase, the War Phase and the End of Turn, then the next turn until the
-- scenario ends (rules/endturn.lua decides).

local turn = {}

turn.turn = {}

local PHASES = {
  { stage = "initial", phase = "initial", state = "initial" },
  { stage = "diplomacy", phase = "diplomacy", state = "diplomacy", title = "Diplomacy Phase" },
  { stage = "government", phase = "government", state = "government", title = "Government Phase" },
  { stage = "war", phase = "war", state = "war", title = "War Phase" },
  { stage = "end", phase = "end", state = "end_of_turn", title = "End of Turn" },
}

function turn.turn.run(ctx)
  local locals = ctx.locals
  local next_index = 1
  for i, entry in ipairs(PHASES) do
    if entry.stage == locals.stage then
      next_index = i + 1
    end
  end
  local entry = PHASES[next_index]
  if entry == nil then
    -- The End of Turn began the next turn (or ended the game).
    locals.stage = nil
    entry = PHASES[1]
  end
  locals.stage = entry.stage
  ctx:set_phase(entry.phase)
  if entry.title then
    ctx:log(string.format("Turn %d: %s.", ctx:turn(), entry.title))
  end
  ctx:call(entry.state, entry.locals or {})
end

return turn
