-- Congress of Vienna: the turn (Playbook 16): the Initial Phase, the Diplomacy Phase, the
-- Government Phase, the War Phase and the End of Turn, then the next turn until the
-- scenario ends (rules/endturn.lua decides). Written as declared steps (@lib/steps.lua),
-- one a phase, again each turn.

local steps = include("@lib/steps.lua")

local turn = {}

-- A phase: its name on the table, the state that plays it and its title in the log.
local function phase(phase_name, state, title)
  return {
    name = title or phase_name,
    calls = state,
    run = function(ctx)
      ctx:set_phase(phase_name)
      if title then
        ctx:log("Turn %d: %s.", ctx:turn(), title)
      end
      return steps.call(state, {})
    end,
  }
end

turn.turn = steps.procedure("Turn", {
  phase("Initial Phase", "initial"),
  phase("Diplomacy Phase", "diplomacy", "Diplomacy Phase"),
  phase("Government Phase", "government", "Government Phase"),
  phase("War Phase", "war", "War Phase"),
  phase("End of Turn", "end_of_turn", "End of Turn"),
  again = true,
})

return turn
